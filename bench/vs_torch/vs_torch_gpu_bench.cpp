// tide, PyTorch (libtorch's C++ API) and raw CUDA side by side on one real GPU, in one process
// (issue 6). Every case is registered once per side as "<Case>/tide", "<Case>/torch" and
// "<Case>/raw", so one run measures all sides under the same machine state. Run as
//   tide_vs_torch_gpu_bench --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//       --benchmark_out=vs_torch.json --benchmark_out_format=json
// and compare the medians ("_median" aggregates): random interleaving runs the repetitions of
// all cases in a shuffled order, so a drift of clocks or temperature spreads over every side.
// How each case is timed: Note [GPU bench timing] in cases.h. The figures to compare are
// real_time for every case but PeakReserved (its peak_reserved_bytes counter) and Overlap (its
// ratio counter); AddF32 / SumF32 also report pct_of_peak, TinyAdd/raw is the launch floor.
//
// tide must use the real GPU: with TIDE_SIM_DEVICES set, or without a CUDA device, the program
// prints why it skipped and exits 0 without running anything. A build without libtorch's CUDA
// (TIDE_BENCH_WITH_TORCH=0) has the tide and raw sides only; so does a run in which libtorch
// sees no device (it says so).

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "cases.h"
#include "raw_cuda.h"
#include "tide/cuda.h"
#include "tide/tide.h"

namespace tide::bench::gpu {
namespace {

/// Whether tide sees a real (not simulated) device 0; `why` says what is missing otherwise.
bool real_gpu_present(std::string& why) {
  if (const char* sim = std::getenv("TIDE_SIM_DEVICES"); sim && *sim) {
    why = std::string("TIDE_SIM_DEVICES=") + sim + " makes tide simulate GPUs; unset it to benchmark the real one";
    return false;
  }
  try {
    if (!cuda::is_available()) {
      why = "tide sees no CUDA device (no GPU, no driver, or CUDA_VISIBLE_DEVICES hides them all)";
      return false;
    }
    if (cuda::get_device_properties(0).simulated) {
      why = "tide's device 0 is simulated";
      return false;
    }
  } catch (const std::exception& e) {
    why = std::string("tide could not open a CUDA device: ") + e.what();
    return false;
  }
  return true;
}

void record_context() {
  const cuda::DeviceProperties props = cuda::get_device_properties(0);
  const MemoryPeak peak = memory_peak(0);
  int driver = 0, runtime = 0;
  BENCH_CUDA_CHECK(cudaDriverGetVersion(&driver));
  BENCH_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  benchmark::AddCustomContext("tide_version", version());
  benchmark::AddCustomContext("device_name", props.name);
  benchmark::AddCustomContext("compute_capability", std::to_string(props.major) + "." + std::to_string(props.minor));
  benchmark::AddCustomContext("multiprocessors", std::to_string(props.multi_processor_count));
  benchmark::AddCustomContext("total_memory_bytes", std::to_string(props.total_memory));
  benchmark::AddCustomContext("memory_clock_khz", std::to_string(peak.memory_clock_khz));
  benchmark::AddCustomContext("memory_bus_width_bits", std::to_string(peak.bus_width_bits));
  benchmark::AddCustomContext("peak_memory_bytes_per_second", std::to_string(peak.bytes_per_second()));
  benchmark::AddCustomContext("cuda_driver_version", std::to_string(driver));
  benchmark::AddCustomContext("cuda_runtime_version_tide", std::to_string(runtime));
  benchmark::AddCustomContext("tide_float32_matmul_precision", get_float32_matmul_precision());
}

}  // namespace
}  // namespace tide::bench::gpu

int main(int argc, char** argv) {
  using namespace tide::bench::gpu;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::string why;
  if (!real_gpu_present(why)) {
    std::fprintf(stderr, "tide_vs_torch_gpu_bench: skipped: no CUDA: %s\n", why.c_str());
    return 0;
  }
  record_context();
  register_tide_cases();
  register_tide_train_cases();
  register_raw_cases();
#if TIDE_BENCH_WITH_TORCH
  const char* torch_why = nullptr;
  if (torch_cuda_ready(&torch_why)) {
    register_torch_cases();
    register_torch_train_cases();
  } else {
    std::fprintf(stderr, "tide_vs_torch_gpu_bench: torch cases skipped: %s\n", torch_why);
    benchmark::AddCustomContext("torch_skipped", torch_why);
  }
#else
  std::fprintf(stderr, "tide_vs_torch_gpu_bench: torch cases skipped: built without libtorch's CUDA\n");
  benchmark::AddCustomContext("torch_skipped", "built without libtorch's CUDA");
#endif

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
