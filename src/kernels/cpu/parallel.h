#pragma once
// parallel_for for cpu loops: OpenMP when built with it (TIDE_OPENMP), serial otherwise
// (the tsan preset, where uninstrumented OpenMP threads would give false reports).

#include <algorithm>
#include <cstdint>

#if defined(TIDE_USE_OPENMP)
#include <omp.h>
#endif

namespace tide::kernels {

/// Below this many elements a loop runs on one thread (torch's at::internal::GRAIN_SIZE).
inline constexpr int64_t kGrainSize = 32768;

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
