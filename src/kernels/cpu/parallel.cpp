#include "kernels/cpu/parallel.h"

#include <algorithm>

#if defined(TIDE_USE_OPENMP)
#include <omp.h>
#endif

namespace tide::kernels {

void parallel_chunks(int64_t begin, int64_t end, int64_t grain, const void* f,
                     void (*call)(const void*, int64_t, int64_t)) {
#if defined(TIDE_USE_OPENMP)
  const int64_t n = end - begin;
  if (!omp_in_parallel()) {
    const int64_t threads = std::min<int64_t>(omp_get_max_threads(), (n + grain - 1) / grain);
    if (threads > 1) {
#pragma omp parallel num_threads(static_cast<int>(threads))
      {
        const int64_t tid = omp_get_thread_num();
        const int64_t nt = omp_get_num_threads();
        const int64_t chunk = (n + nt - 1) / nt;
        const int64_t b = begin + tid * chunk;
        const int64_t e = std::min(end, b + chunk);
        if (b < e) call(f, b, e);
      }
      return;
    }
  }
#else
  (void)grain;
#endif
  call(f, begin, end);
}

}  // namespace tide::kernels
