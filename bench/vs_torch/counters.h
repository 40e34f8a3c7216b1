#pragma once
// Counters every side reports the same way, and a wall-clock stopwatch.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

#include "raw_cuda.h"

namespace tide::bench::gpu {

/// Seconds since construction or the last restart().
class Stopwatch {
 public:
  Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
  void restart() { t0_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

/// bytes_per_second (Google Benchmark's, over the reported time) and pct_of_peak: the same
/// rate over `measured_seconds` (the sum of the iteration times reported) as a percentage of
/// device 0's theoretical bandwidth (MemoryPeak).
inline void report_bandwidth(benchmark::State& state, int64_t bytes_per_iteration,
                             double measured_seconds) {
  const double bytes = static_cast<double>(bytes_per_iteration) * static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  static const double peak = memory_peak(0).bytes_per_second();
  if (measured_seconds > 0 && peak > 0) {
    state.counters["pct_of_peak"] = 100.0 * bytes / measured_seconds / peak;
  }
}

/// items_per_second counts floating-point operations (2·n³ per product) and tflops is the
/// same rate in TFLOP/s over `measured_seconds`.
inline void report_matmul_flops(benchmark::State& state, int64_t n, double measured_seconds) {
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) *
                       static_cast<double>(n) * static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(flops));
  if (measured_seconds > 0) state.counters["tflops"] = flops / measured_seconds * 1e-12;
}

}  // namespace tide::bench::gpu
