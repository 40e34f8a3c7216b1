// GPU launcher of search_stub: searchsorted's binary search, one thread per value, with the
// cpu's insertion_point (kernels/search_bound.h), so both give the same positions.

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/convert.h"
#include "kernels/cpu/reduce_kernels.h"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/search_bound.h"

namespace tide::kernels::cuda {
namespace {

constexpr int kSearchThreads = 256;

template <class T, class I>
__global__ void __launch_bounds__(kSearchThreads)
    search_kernel(I* out, const T* sorted, const T* values, int64_t n, int64_t len,
                  int64_t per_row, bool right) {
  using C = kernels::compute_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const T* row = sorted + (i / per_row) * len;
    out[i] = static_cast<I>(
        kernels::insertion_point(row, len, kernels::convert<C>(values[i]), right));
  }
}

}  // namespace

void search_cuda(const Tensor& out, const Tensor& sorted, const Tensor& values, int64_t len,
                 int64_t per_row, bool right) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && kernels::dense(sorted) && kernels::dense(values) &&
                       sorted.dtype() == values.dtype() && per_row > 0);
  const int64_t n = values.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  const unsigned blocks = grid_for(ceil_div(n, kSearchThreads), ctx, kSearchThreads);
  dispatch_dtype(values.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = static_cast<const T*>(sorted.raw_data());
    const T* v = static_cast<const T*>(values.raw_data());
    if (out.dtype() == kInt32) {
      search_kernel<T><<<blocks, kSearchThreads, 0, ctx.stream>>>(
          static_cast<int32_t*>(out.raw_data()), s, v, n, len, per_row, right);
    } else {
      search_kernel<T><<<blocks, kSearchThreads, 0, ctx.stream>>>(
          static_cast<int64_t*>(out.raw_data()), s, v, n, len, per_row, right);
    }
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tide::kernels::cuda
