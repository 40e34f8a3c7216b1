#pragma once
// Sets backends::cudnn's switches for a test and restores them when it ends.

#include "tide/backends/cudnn.h"

namespace tide::test {

class CudnnSwitchesGuard {
 public:
  CudnnSwitchesGuard(bool benchmark, bool deterministic, bool allow_tf32)
      : benchmark_(backends::cudnn::benchmark()),
        deterministic_(backends::cudnn::deterministic()),
        allow_tf32_(backends::cudnn::allow_tf32()) {
    backends::cudnn::set_benchmark(benchmark);
    backends::cudnn::set_deterministic(deterministic);
    backends::cudnn::set_allow_tf32(allow_tf32);
  }
  ~CudnnSwitchesGuard() {
    backends::cudnn::set_benchmark(benchmark_);
    backends::cudnn::set_deterministic(deterministic_);
    backends::cudnn::set_allow_tf32(allow_tf32_);
  }
  CudnnSwitchesGuard(const CudnnSwitchesGuard&) = delete;
  CudnnSwitchesGuard& operator=(const CudnnSwitchesGuard&) = delete;

 private:
  bool benchmark_, deterministic_, allow_tf32_;
};

}  // namespace tide::test
