#pragma once
// `tide demo`: walks through the examples of PyTorch's "CUDA semantics" note (the seeds) on
// the devices this process has, and says plainly why the steps that need others are skipped.

#include <ostream>

namespace tide::cli {

struct DemoOptions {
  /// The seed's `--disable-cuda` flag: pick cpu even when cuda devices exist.
  bool disable_cuda = false;
  /// How many simulated GPUs the CLI chose because the machine has no cuda device and the
  /// user set neither TIDE_SIM_DEVICES nor CUDA_VISIBLE_DEVICES (0: none chosen).
  int simulated_by_default = 0;
};

/// Before the runtime starts: when this machine has no cuda device and neither
/// TIDE_SIM_DEVICES nor CUDA_VISIBLE_DEVICES is set, asks the runtime for `n` simulated GPUs
/// and returns n; returns 0 and changes nothing otherwise (an explicit setting wins).
int simulate_gpus_when_none(int n);

/// Runs every step whose devices exist; returns 0 when every step that ran succeeded, 1 otherwise.
int run_demo(const DemoOptions& options, std::ostream& out);

}  // namespace tide::cli
