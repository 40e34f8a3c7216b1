#pragma once
// `tide demo`: walks through the examples of PyTorch's "CUDA semantics" note (the seeds) on
// the devices this process has, and says plainly why the steps that need others are skipped.

#include <ostream>

namespace tide::cli {

struct DemoOptions {
  /// The seed's `--disable-cuda` flag: pick cpu even when cuda devices exist.
  bool disable_cuda = false;
};

/// Runs every step whose devices exist; returns 0 when every step that ran succeeded, 1 otherwise.
int run_demo(const DemoOptions& options, std::ostream& out);

}  // namespace tide::cli
