#pragma once
// The main() of tide's Google Benchmark programs: registers the program's cases (before
// Initialize, so --benchmark_filter sees them) and runs them.

#include <benchmark/benchmark.h>

#include "tide/testing/sim_hooks.h"

namespace tide::bench {

/// Runs `register_cases`' benchmarks with Google Benchmark's command line. With
/// `sim_devices` > 0, the cuda backend is `sim_devices` simulated GPUs: set before anything
/// touches it, since it is chosen once per process.
inline int run_benchmarks(int argc, char** argv, void (*register_cases)(), int sim_devices = 0) {
  if (sim_devices > 0) tide::testing::set_sim_devices_for_testing(sim_devices);
  register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace tide::bench
