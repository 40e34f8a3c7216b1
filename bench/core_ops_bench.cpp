// tide's core cpu ops alone: per-op overhead, a big allocating add, the same add into an
// output, a big sum and a square matmul. Builds wherever tide does; the side-by-side
// comparison with libtorch is vs_libtorch/vs_libtorch_bench.cpp (scripts/bench-vs-libtorch).
// Threads: OpenMP's default (OMP_NUM_THREADS), OpenBLAS's own (OPENBLAS_NUM_THREADS).

#include <benchmark/benchmark.h>

#include "tide_cases.h"

namespace {

void register_cases() {
  using namespace tide::bench;
  benchmark::RegisterBenchmark("add_1", add_1)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("add_16m", add_16m)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("add_out_16m", add_out_16m)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("sum_16m", sum_16m)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("matmul_1024", matmul_1024)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
