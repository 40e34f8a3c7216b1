// GPU launcher of sort_stub: sort along a dim (and so argsort, topk, kthvalue, median).
//
// Note [GPU sort]: a thread sorts one line with a stable bottom-up merge sort of the line's
// positions (ping-ponging between two int64 scratch rows), comparing as Note [Sort order] says,
// so the result is the cpu's exactly. Lines run in parallel; a single long line runs on one
// thread, which is correct but slow. A segmented radix sort (CUB) would be the fast path; it
// instantiates heavy templates per dtype and direction, which CI's build time does not allow
// yet.

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/convert.h"
#include "kernels/cpu/reduce_kernels.h"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/scratch.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/sort_order.h"

namespace tide::kernels::cuda {
namespace {

constexpr int kSortThreads = 128;

template <class T, bool Descending>
__global__ void __launch_bounds__(kSortThreads)
    sort_lines_kernel(T* values, int64_t* indices, int64_t* scratch, const T* in, int64_t outer,
                      int64_t len, int64_t inner) {
  using C = kernels::compute_t<T>;
  const int64_t lines = outer * inner;
  for (int64_t line = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; line < lines;
       line += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = line / inner, i = line - o * inner;
    const T* line_in = in + o * len * inner + i;
    int64_t* a = scratch + line * 2 * len;
    int64_t* b = a + len;
    // Not unrolled: unrolled copies of the merge loops spill registers (CI refuses spills).
#pragma unroll 1
    for (int64_t r = 0; r < len; ++r) a[r] = r;
#pragma unroll 1
    for (int64_t width = 1; width < len; width *= 2) {
#pragma unroll 1
      for (int64_t lo = 0; lo < len; lo += 2 * width) {
        const int64_t mid = lo + width < len ? lo + width : len;
        const int64_t hi = lo + 2 * width < len ? lo + 2 * width : len;
        int64_t x = lo, y = mid, k = lo;
#pragma unroll 1
        while (x < mid && y < hi) {
          // Take from the right run only when strictly before: equal values keep their order.
          const C vx = kernels::convert<C>(line_in[a[x] * inner]);
          const C vy = kernels::convert<C>(line_in[a[y] * inner]);
          b[k++] = kernels::sorts_before(vy, vx, Descending) ? a[y++] : a[x++];
        }
#pragma unroll 1
        while (x < mid) b[k++] = a[x++];
#pragma unroll 1
        while (y < hi) b[k++] = a[y++];
      }
      int64_t* t = a;
      a = b;
      b = t;
    }
#pragma unroll 1
    for (int64_t r = 0; r < len; ++r) {
      const int64_t at = (o * len + r) * inner + i;
      if (values != nullptr) values[at] = line_in[a[r] * inner];
      indices[at] = a[r];
    }
  }
}

}  // namespace

void sort_cuda(const Tensor& values, const Tensor& indices, const Tensor& in,
               kernels::ReduceShape s, bool descending) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && kernels::dense(indices) && indices.dtype() == kInt64);
  const int64_t lines = s.outer * s.inner;
  if (lines == 0 || s.reduced == 0) return;
  const LaunchContext& ctx = current_launch();
  Tensor scratch = scratch_bytes(lines * 2 * s.reduced * static_cast<int64_t>(sizeof(int64_t)),
                                 in.device());
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* v = values.defined() ? static_cast<T*>(values.raw_data()) : nullptr;
    auto* idx = static_cast<int64_t*>(indices.raw_data());
    auto* tmp = static_cast<int64_t*>(scratch.raw_data());
    const T* src = static_cast<const T*>(in.raw_data());
    const unsigned blocks = grid_for(ceil_div(lines, kSortThreads), ctx, kSortThreads);
    if (descending) {
      sort_lines_kernel<T, true><<<blocks, kSortThreads, 0, ctx.stream>>>(
          v, idx, tmp, src, s.outer, s.reduced, s.inner);
    } else {
      sort_lines_kernel<T, false><<<blocks, kSortThreads, 0, ctx.stream>>>(
          v, idx, tmp, src, s.outer, s.reduced, s.inner);
    }
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tide::kernels::cuda
