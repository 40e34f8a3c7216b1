#pragma once
// parallel_for for cpu loops: OpenMP when built with it (TIDE_OPENMP), serial otherwise
// (the tsan preset, where uninstrumented OpenMP threads would give false reports).

#include <cstdint>

namespace tide::kernels {

/// Below this many elements a loop runs on one thread. Note [Grain size]: torch uses 32768;
/// tide uses 8x that. After an OpenMP region its worker threads spin for a while, and on a
/// small machine they take the cores that OpenBLAS's own threads need for the next product:
/// in a training step (products between elementwise ops and optimizer updates of a few
/// hundred thousand elements) the spinning cost more than the split saved — an MLP step at
/// batch 64 ran 3.5x faster on 2 cores (bench/RESULTS.md). A memory-bound loop under 1 MiB
/// gains little from a second thread anyway.
inline constexpr int64_t kGrainSize = 32768 * 8;

/// Calls call(f, b, e) over disjoint chunks covering [begin, end) on OpenMP's threads, or once
/// on this one inside a parallel region or with one thread. Note [One parallel region]: every
/// parallel_for shares this one compiled region, reached through a function pointer, instead
/// of an OpenMP region outlined per loop instantiation (each kernel's every op and dtype):
/// the indirect call is once per chunk of at least a grain, and the regions were a good part
/// of the kernel files' compile time (issue 24's build-time budget).
void parallel_chunks(int64_t begin, int64_t end, int64_t grain, const void* f,
                     void (*call)(const void*, int64_t, int64_t));

/// Calls f(begin, end) over disjoint chunks covering [begin, end), in parallel when large.
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (begin >= end) return;
#if defined(TIDE_USE_OPENMP)
  if (end - begin > grain) {
    parallel_chunks(begin, end, grain, &f, [](const void* fn, int64_t b, int64_t e) {
      (*static_cast<const F*>(fn))(b, e);
    });
    return;
  }
#else
  (void)grain;
#endif
  f(begin, end);
}

}  // namespace tide::kernels
