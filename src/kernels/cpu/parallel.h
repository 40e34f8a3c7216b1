#pragma once
// parallel_for for cpu loops: OpenMP when built with it (TIDE_OPENMP), serial otherwise
// (the tsan preset, where uninstrumented OpenMP threads would give false reports).

#include <algorithm>
#include <cstdint>

#if defined(TIDE_USE_OPENMP)
#include <omp.h>
#endif

namespace tide::kernels {

/// Below this many elements a loop runs on one thread. Note [Grain size]: torch uses 32768;
/// tide uses 8x that. After an OpenMP region its worker threads spin for a while, and on a
/// small machine they take the cores that OpenBLAS's own threads need for the next product:
/// in a training step (products between elementwise ops and optimizer updates of a few
/// hundred thousand elements) the spinning cost more than the split saved — an MLP step at
/// batch 64 ran 3.5x faster on 2 cores (bench/RESULTS.md). A memory-bound loop under 1 MiB
/// gains little from a second thread anyway.
inline constexpr int64_t kGrainSize = 32768 * 8;

/// Calls f(begin, end) over disjoint chunks covering [begin, end), in parallel when large.
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (begin >= end) return;
#if defined(TIDE_USE_OPENMP)
  int64_t n = end - begin;
  if (n > grain && !omp_in_parallel()) {
    int64_t max_threads = omp_get_max_threads();
    int64_t threads = std::min<int64_t>(max_threads, (n + grain - 1) / grain);
    if (threads > 1) {
#pragma omp parallel num_threads(static_cast<int>(threads))
      {
        int64_t tid = omp_get_thread_num();
        int64_t nt = omp_get_num_threads();
        int64_t chunk = (n + nt - 1) / nt;
        int64_t b = begin + tid * chunk;
        int64_t e = std::min(end, b + chunk);
        if (b < e) f(b, e);
      }
      return;
    }
  }
#else
  (void)grain;
#endif
  f(begin, end);
}

}  // namespace tide::kernels
