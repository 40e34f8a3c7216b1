// The torch side of tide_vs_torch_gpu_bench as a program of its own, compiled on the GPU
// machine against that machine's torch (scripts/gpu_check/torch_side.py does it, timed).
//
// Note [Two processes]: in the GPU bundle (scripts/gpu-bundle), tide's side is prebuilt here
// (tide_vs_torch_gpu_bench, built with TIDE_BENCH_TORCH_GPU_TIDE_ONLY: the tide and raw-CUDA
// cases) and torch's side is this program, built there from torch_cases.cpp,
// torch_train_cases.cpp and this file, linked with the bundle's prebuilt raw kernels
// (libtide_vs_torch_raw_kernels.a: the fills every side uses, so no nvcc is needed there) and
// Google Benchmark. The two are never linked into one process because
// - torch's wheel brings its own C++ runtime needs, OpenMP and CUDA libraries, found through its
//   RPATH; tide's bundle brings its OpenBLAS, libgomp and friends through LD_LIBRARY_PATH. In one
//   process the first found wins for both, which is a mix neither side was built or tested with;
// - the one-process binary would need tide's headers, its internal headers and nvcc on the GPU
//   machine, and minutes of compiling there instead of the three translation units this needs.
// Both programs use the same case code paths, timing (Note [GPU bench timing] in cases.h) and
// names ("<Case>/tide", "<Case>/torch", "<Case>/raw"); the harness (scripts/gpu_check/
// bundle_bench.py) runs them alternately in rounds, each with random interleaving of its own
// cases over its repetitions, and takes medians over all rounds, so both sides see the same
// drift of clocks and temperature. PeakReserved, whose trace comes from tide's snapshot code,
// stays in the one-process build (scripts/gpu-check from source).
//
// Built against a torch without CUDA (TIDE_BENCH_TORCH_CUDA=0: Debian's python3-torch, where
// the harness is proven) or run where torch sees no device, it prints why it skipped and
// exits 0 without running anything.

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <cstdio>
#include <string>

#ifndef TIDE_BENCH_TORCH_CUDA
#define TIDE_BENCH_TORCH_CUDA 1
#endif
#ifndef TIDE_BENCH_TORCH_VERSION
#define TIDE_BENCH_TORCH_VERSION "unknown"
#endif

#if TIDE_BENCH_TORCH_CUDA
#include <cuda_runtime_api.h>

#include "cases.h"
#include "raw_cuda.h"

namespace {

void record_context() {
  using namespace tide::bench::gpu;
  cudaDeviceProp props{};
  BENCH_CUDA_CHECK(cudaGetDeviceProperties(&props, 0));
  const MemoryPeak peak = memory_peak(0);
  int driver = 0, runtime = 0;
  BENCH_CUDA_CHECK(cudaDriverGetVersion(&driver));
  BENCH_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  benchmark::AddCustomContext("device_name", props.name);
  benchmark::AddCustomContext("memory_clock_khz", std::to_string(peak.memory_clock_khz));
  benchmark::AddCustomContext("memory_bus_width_bits", std::to_string(peak.bus_width_bits));
  benchmark::AddCustomContext("peak_memory_bytes_per_second", std::to_string(peak.bytes_per_second()));
  benchmark::AddCustomContext("cuda_driver_version", std::to_string(driver));
  benchmark::AddCustomContext("cuda_runtime_version_torch", std::to_string(runtime));
}

}  // namespace
#endif

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
#if TIDE_BENCH_TORCH_CUDA
  const char* why = nullptr;
  if (!tide::bench::gpu::torch_cuda_ready(&why)) {
    std::fprintf(stderr, "torch_side_gpu_bench: skipped: no CUDA: %s\n", why);
    return 0;
  }
  record_context();
  tide::bench::gpu::register_torch_cases();
  tide::bench::gpu::register_torch_train_cases();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
#else
  std::fprintf(stderr, "torch_side_gpu_bench: skipped: no CUDA: torch %s was built without it "
               "(torch.cuda.is_available() is %s)\n", TIDE_BENCH_TORCH_VERSION,
               torch::cuda::is_available() ? "true" : "false");
  return 0;
#endif
}
