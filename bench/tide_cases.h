#pragma once
// The tide side of the core benchmark cases, shared by core_ops_bench.cpp (tide alone, built
// everywhere) and vs_libtorch/vs_libtorch_bench.cpp (tide and libtorch in one process), so the
// numbers both programs report come from the very same code.
//
// Note [Benchmark counters]: elementwise cases count bytes moved (two inputs read, one output
// written) and elements; sum counts bytes read; matmul counts floating-point operations
// (2*n^3) as items, so items_per_second reads as FLOP/s. Benchmarks are timed on the wall
// clock (UseRealTime) because the big cases run on several OpenMP threads.

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <cstdint>
#include <vector>

#include "tide/tide.h"

namespace tide::bench {

inline constexpr int64_t kBigNumel = int64_t{1} << 24;  // 16M elements, 64 MiB of float32
inline constexpr int64_t kMatmulSize = 1024;

/// A deterministic value in [-1, 1] for element i; filled by hand so the inputs depend on no op
/// under test (and tide and libtorch get bit-identical inputs).
inline float input_value(int64_t i, int seed) {
  return static_cast<float>((i * 7 + seed * 13) % 17 - 8) / 8.0f;
}

inline Tensor make_input(const std::vector<int64_t>& sizes, int seed) {
  Tensor t = empty(sizes);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = input_value(i, seed);
  return t;
}

inline void count_elementwise(benchmark::State& state, int64_t numel) {
  state.SetItemsProcessed(state.iterations() * numel);
  state.SetBytesProcessed(state.iterations() * numel * 3 * int64_t{sizeof(float)});
}

inline void count_reduction(benchmark::State& state, int64_t numel) {
  state.SetItemsProcessed(state.iterations() * numel);
  state.SetBytesProcessed(state.iterations() * numel * int64_t{sizeof(float)});
}

inline void count_matmul(benchmark::State& state, int64_t n) {
  state.SetItemsProcessed(state.iterations() * 2 * n * n * n);
}

/// Minor page faults per iteration, read around the timed loop: shows whether an allocating
/// case touches fresh pages every time (what a cache of freed buffers avoids).
class PageFaultCounter {
 public:
  PageFaultCounter() : start_(minor_faults()) {}
  void report(benchmark::State& state) const {
    state.counters["page_faults_per_iter"] = benchmark::Counter(
        static_cast<double>(minor_faults() - start_), benchmark::Counter::kAvgIterations);
  }

 private:
  static int64_t minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
  }
  int64_t start_;
};

/// Per-op overhead: a 1-element add that allocates its result.
inline void add_1(benchmark::State& state) {
  Tensor a = make_input({1}, 1), b = make_input({1}, 2);
  for (auto _ : state) {
    Tensor c = add(a, b);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}

/// A 16M-element add that allocates its 64 MiB result every iteration.
inline void add_16m(benchmark::State& state) {
  Tensor a = make_input({kBigNumel}, 1), b = make_input({kBigNumel}, 2);
  PageFaultCounter faults;
  for (auto _ : state) {
    Tensor c = add(a, b);
    benchmark::DoNotOptimize(c);
  }
  faults.report(state);
  count_elementwise(state, kBigNumel);
}

/// The same add into a preallocated output.
inline void add_out_16m(benchmark::State& state) {
  Tensor a = make_input({kBigNumel}, 1), b = make_input({kBigNumel}, 2);
  Tensor out = empty({kBigNumel});
  for (auto _ : state) {
    add_out(out, a, b);
    benchmark::ClobberMemory();
  }
  count_elementwise(state, kBigNumel);
}

/// A whole-tensor float32 sum of 16M elements.
inline void sum_16m(benchmark::State& state) {
  Tensor a = make_input({kBigNumel}, 1);
  for (auto _ : state) {
    Tensor s = sum(a);
    benchmark::DoNotOptimize(s);
  }
  count_reduction(state, kBigNumel);
}

/// A square float32 matmul that allocates its result.
inline void matmul_1024(benchmark::State& state) {
  Tensor a = make_input({kMatmulSize, kMatmulSize}, 1), b = make_input({kMatmulSize, kMatmulSize}, 2);
  for (auto _ : state) {
    Tensor c = matmul(a, b);
    benchmark::DoNotOptimize(c);
  }
  count_matmul(state, kMatmulSize);
}

}  // namespace tide::bench
