// GPU launcher of min_max_stub: max or min over the middle dim of a ReduceShape with the
// index where it first occurs, planned as Note [GPU reduction plans] says. Partial results
// combine with ExtremumOp in any order and still give the cpu's value and index exactly.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/cuda/reduce_plan.h"
#include "kernels/cuda/scratch.h"
#include "kernels/convert.h"
#include "kernels/reduce_functors.h"

namespace tide::kernels::cuda {
namespace {

using kernels::compute_t;
using kernels::convert;
using kernels::ReduceShape;
using kernels::ValueIndex;

/// The extremum of p[r * stride] for r = begin, begin + step, ... < end, visited in index
/// order, so the first of equal values (and the first NaN) stays; index -1 when empty.
template <class In, bool IsMax>
__device__ inline ValueIndex<compute_t<In>> scan_strided(const In* p, int64_t stride,
                                                         int64_t begin, int64_t end,
                                                         int64_t step) {
  using C = compute_t<In>;
  const kernels::MinMaxSelect<C, IsMax> select;
  ValueIndex<C> best = no_extremum<C>();
  if (begin < end) best = ValueIndex<C>{convert<C>(p[begin * stride]), begin};
#pragma unroll 4
  for (int64_t r = begin + step; r < end; r += step) {
    const C v = convert<C>(p[r * stride]);
    if (select(v, best.value)) best = ValueIndex<C>{v, r};
  }
  return best;
}

template <class In, class C>
__device__ inline void store_extremum(In* values, int64_t* indices, int64_t at,
                                      ValueIndex<C> best) {
  if (values != nullptr) values[at] = convert<In>(best.value);
  if (indices != nullptr) indices[at] = best.index;
}

template <class In, bool IsMax>
__global__ void __launch_bounds__(kReduceThreads)
    min_max_warp_rows_kernel(In* values, int64_t* indices, const In* in, int64_t rows,
                             int64_t len) {
  using C = compute_t<In>;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t warps_per_block = blockDim.x / kWarpSize;
  const int64_t stride = gridDim.x * warps_per_block;
  for (int64_t row = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize; row < rows;
       row += stride) {
    ValueIndex<C> best = scan_strided<In, IsMax>(in + row * len, 1, lane, len, kWarpSize);
    best = warp_reduce(best, ExtremumOp<C, IsMax>{});
    if (lane == 0) store_extremum(values, indices, row, best);
  }
}

// gridDim.y pieces of `chunk` elements per row; with more than one, partials[row][piece].
template <class In, bool IsMax>
__global__ void __launch_bounds__(kReduceThreads)
    min_max_block_rows_kernel(In* values, int64_t* indices, ValueIndex<compute_t<In>>* partials,
                              const In* in, int64_t rows, int64_t len, int64_t chunk) {
  using C = compute_t<In>;
  const int64_t begin = blockIdx.y * chunk;
  const int64_t end = std::min(len, begin + chunk);
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    ValueIndex<C> best =
        scan_strided<In, IsMax>(in + row * len, 1, begin + threadIdx.x, end, blockDim.x);
    best = block_reduce(best, ExtremumOp<C, IsMax>{}, no_extremum<C>());
    if (threadIdx.x == 0) {
      if (gridDim.y == 1) {
        store_extremum(values, indices, row, best);
      } else {
        partials[row * gridDim.y + blockIdx.y] = best;
      }
    }
  }
}

// Output j = (o, i) is column i of slab o; lanes y = 0..7 take every 8th row of the piece.
template <class In, bool IsMax>
__global__ void __launch_bounds__(kReduceThreads)
    min_max_columns_kernel(In* values, int64_t* indices, ValueIndex<compute_t<In>>* partials,
                           const In* in, int64_t outer, int64_t len, int64_t inner,
                           int64_t chunk) {
  using C = compute_t<In>;
  __shared__ ValueIndex<C> lane_best[kColumnLanes][kColumnWidth];
  const ExtremumOp<C, IsMax> combine;
  const int64_t outputs = outer * inner;
  const int64_t begin = blockIdx.y * chunk;
  const int64_t end = std::min(len, begin + chunk);
  for (int64_t tile = blockIdx.x; tile * kColumnWidth < outputs; tile += gridDim.x) {
    const int64_t j = tile * kColumnWidth + threadIdx.x;
    ValueIndex<C> best = no_extremum<C>();
    if (j < outputs) {
      const int64_t o = j / inner, i = j - o * inner;
      best = scan_strided<In, IsMax>(in + o * len * inner + i, inner, begin + threadIdx.y, end,
                                     kColumnLanes);
    }
    lane_best[threadIdx.y][threadIdx.x] = best;
    __syncthreads();
    if (threadIdx.y == 0 && j < outputs) {
      for (int k = 1; k < kColumnLanes; ++k) best = combine(best, lane_best[k][threadIdx.x]);
      if (gridDim.y == 1) {
        store_extremum(values, indices, j, best);
      } else {
        partials[j * gridDim.y + blockIdx.y] = best;
      }
    }
    __syncthreads();
  }
}

// A warp per output combines its `splits` partials.
template <class In, bool IsMax>
__global__ void __launch_bounds__(kReduceThreads)
    min_max_finish_kernel(In* values, int64_t* indices,
                          const ValueIndex<compute_t<In>>* partials, int64_t outputs,
                          int64_t splits) {
  using C = compute_t<In>;
  const ExtremumOp<C, IsMax> combine;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t warps_per_block = blockDim.x / kWarpSize;
  const int64_t stride = gridDim.x * warps_per_block;
  for (int64_t j = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize; j < outputs;
       j += stride) {
    ValueIndex<C> best = no_extremum<C>();
    for (int64_t s = lane; s < splits; s += kWarpSize) best = combine(best, partials[j * splits + s]);
    best = warp_reduce(best, combine);
    if (lane == 0) store_extremum(values, indices, j, best);
  }
}

template <class In, bool IsMax>
void launch_min_max(In* values, int64_t* indices, const In* in, ReduceShape s, Device device) {
  using Partial = ValueIndex<compute_t<In>>;
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  const int64_t outputs = s.outer * s.inner;
  const GpuReducePlan plan = plan_gpu_reduction(s, ctx);
  Tensor scratch;
  Partial* partials = nullptr;
  if (plan.splits > 1) {
    scratch = scratch_bytes(outputs * plan.splits * static_cast<int64_t>(sizeof(Partial)), device);
    partials = static_cast<Partial*>(scratch.raw_data());
  }
  const dim3 grid(plan.grid_x, static_cast<unsigned>(plan.splits));
  switch (plan.kind) {
    case GpuReducePlan::Kind::WarpPerRow:
      min_max_warp_rows_kernel<In, IsMax>
          <<<plan.grid_x, kReduceThreads, 0, stream>>>(values, indices, in, s.outer, s.reduced);
      break;
    case GpuReducePlan::Kind::BlockPerRow:
      min_max_block_rows_kernel<In, IsMax><<<grid, kReduceThreads, 0, stream>>>(
          values, indices, partials, in, s.outer, s.reduced, plan.chunk);
      break;
    case GpuReducePlan::Kind::Columns:
      min_max_columns_kernel<In, IsMax><<<grid, dim3(kColumnWidth, kColumnLanes), 0, stream>>>(
          values, indices, partials, in, s.outer, s.reduced, s.inner, plan.chunk);
      break;
  }
  TIDE_CUDA_CHECK(cudaGetLastError());
  if (plan.splits > 1) {
    const unsigned blocks = grid_for(ceil_div(outputs, kReduceThreads / kWarpSize), ctx,
                                        kReduceThreads);
    min_max_finish_kernel<In, IsMax>
        <<<blocks, kReduceThreads, 0, stream>>>(values, indices, partials, outputs, plan.splits);
    TIDE_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace

void min_max_cuda(const Tensor& values, const Tensor& indices, const Tensor& in,
                  ReduceShape shape, bool is_max) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && shape.reduced > 0);
  TIDE_INTERNAL_ASSERT(!values.defined() || (kernels::dense(values) && values.dtype() == in.dtype()));
  TIDE_INTERNAL_ASSERT(!indices.defined() || (kernels::dense(indices) && indices.dtype() == kInt64));
  if (shape.outer * shape.inner == 0 || (!values.defined() && !indices.defined())) return;
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using In = typename decltype(tag)::type;
    In* v = values.defined() ? static_cast<In*>(values.raw_data()) : nullptr;
    int64_t* i = indices.defined() ? static_cast<int64_t*>(indices.raw_data()) : nullptr;
    const In* src = static_cast<const In*>(in.raw_data());
    if (is_max) {
      launch_min_max<In, true>(v, i, src, shape, in.device());
    } else {
      launch_min_max<In, false>(v, i, src, shape, in.device());
    }
  });
}

}  // namespace tide::kernels::cuda
