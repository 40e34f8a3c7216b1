// tide's core cpu ops alone: per-op overhead (an add, a narrow and the other hot views, an add
// of views), a big allocating add, the same add into an output, a big sum and a square matmul.
// Builds wherever tide does; the side-by-side comparison with libtorch is
// vs_libtorch/vs_libtorch_bench.cpp (scripts/bench-vs-libtorch).
// Threads: OpenMP's default (OMP_NUM_THREADS), OpenBLAS's own (OPENBLAS_NUM_THREADS).

#include <benchmark/benchmark.h>

#include "bench_main.h"
#include "tide_cases.h"

namespace {

/// Per-op overhead of a view: narrowing a small plain tensor (a new TensorImpl, no data moved).
void narrow_4(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({4}, 1);
  for (auto _ : state) {
    tide::Tensor v = a.narrow(0, 1, 2);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

/// Per-op overhead of the other hot views on a small plain tensor: reshape and view (the
/// stride computation), transpose, unsqueeze and expand (a new geometry).
void view_4(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({4}, 1);
  for (auto _ : state) {
    tide::Tensor v = a.view({2, 2});
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

void reshape_4(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({4}, 1);
  for (auto _ : state) {
    tide::Tensor v = a.reshape({2, -1});
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

void transpose_2x2(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({2, 2}, 1);
  for (auto _ : state) {
    tide::Tensor v = a.transpose(0, 1);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

void unsqueeze_4(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({4}, 1);
  for (auto _ : state) {
    tide::Tensor v = a.unsqueeze(0);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

void expand_4(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({1, 4}, 1);
  for (auto _ : state) {
    tide::Tensor v = a.expand({3, 4});
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

/// Per-op overhead when the operands are plain views: the autograd hook looks at their base.
void add_1_of_views(benchmark::State& state) {
  tide::Tensor a = tide::bench::make_input({4}, 1), b = tide::bench::make_input({4}, 2);
  tide::Tensor va = a.narrow(0, 1, 1), vb = b.narrow(0, 2, 1);
  for (auto _ : state) {
    tide::Tensor c = add(va, vb);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}

void register_cases() {
  using namespace tide::bench;
  benchmark::RegisterBenchmark("add_1", add_1)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("narrow_4", narrow_4)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("view_4", view_4)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("reshape_4", reshape_4)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("transpose_2x2", transpose_2x2)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("unsqueeze_4", unsqueeze_4)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("expand_4", expand_4)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("add_1_of_views", add_1_of_views)->UseRealTime()->Unit(benchmark::kNanosecond);
  benchmark::RegisterBenchmark("add_16m", add_16m)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("add_out_16m", add_out_16m)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("sum_16m", sum_16m)->UseRealTime()->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("matmul_1024", matmul_1024)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  return tide::bench::run_benchmarks(argc, argv, register_cases);
}
