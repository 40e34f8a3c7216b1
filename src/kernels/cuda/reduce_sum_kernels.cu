// GPU launchers of sum_stub and prod_stub: sum, mean and prod over the middle dim of a
// ReduceShape, planned as Note [GPU reduction plans] says, accumulating as Note [Reduction
// accumulators] says; the fold (Note [Reduction folds]) is the kernels' template parameter.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/cuda/reduce_plan.h"
#include "kernels/cuda/scratch.h"
#include "kernels/convert.h"
#include "kernels/fold_dispatch.h"
#include "kernels/reduce_functors.h"

namespace tide::kernels::cuda {
namespace {

using kernels::finish_sum;
using kernels::ReduceShape;
using kernels::sum_acc_t;
using kernels::to_acc;

/// The fold of p[r * stride] for r = begin, begin + step, ... < end. Four independent
/// accumulators keep four loads in flight per thread.
template <class Acc, class Fold, class In>
__device__ inline Acc sum_strided(const In* p, int64_t stride, int64_t begin, int64_t end,
                                  int64_t step, Fold fold) {
  const Acc id = Fold::template identity<Acc>();
  Acc a0 = id, a1 = id, a2 = id, a3 = id;
  int64_t r = begin;
  for (; r + 3 * step < end; r += 4 * step) {
    a0 = fold(a0, to_acc<Acc>(p[r * stride]));
    a1 = fold(a1, to_acc<Acc>(p[(r + step) * stride]));
    a2 = fold(a2, to_acc<Acc>(p[(r + 2 * step) * stride]));
    a3 = fold(a3, to_acc<Acc>(p[(r + 3 * step) * stride]));
  }
  // Not unrolled: with the four accumulators above, an unrolled tail spills (float16 input).
#pragma unroll 1
  for (; r < end; r += step) a0 = fold(a0, to_acc<Acc>(p[r * stride]));
  return fold(fold(a0, a1), fold(a2, a3));
}

template <class In, class Out, class Fold>
__global__ void __launch_bounds__(kReduceThreads)
    sum_warp_rows_kernel(Out* out, const In* in, int64_t rows, int64_t len, bool mean) {
  const Fold fold;
  using Acc = sum_acc_t<Out>;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t warps_per_block = blockDim.x / kWarpSize;
  const int64_t stride = gridDim.x * warps_per_block;
  for (int64_t row = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize; row < rows;
       row += stride) {
    Acc acc = sum_strided<Acc>(in + row * len, 1, lane, len, kWarpSize, fold);
    acc = warp_reduce(acc, fold);
    if (lane == 0) out[row] = finish_sum<Out>(acc, len, mean);
  }
}

// gridDim.y pieces of `chunk` elements per row; with more than one, partials[row][piece].
template <class In, class Out, class Fold>
__global__ void __launch_bounds__(kReduceThreads)
    sum_block_rows_kernel(Out* out, sum_acc_t<Out>* partials, const In* in, int64_t rows,
                          int64_t len, int64_t chunk, bool mean) {
  using Acc = sum_acc_t<Out>;
  const Fold fold;
  const int64_t begin = blockIdx.y * chunk;
  const int64_t end = std::min(len, begin + chunk);
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    Acc acc = sum_strided<Acc>(in + row * len, 1, begin + threadIdx.x, end, blockDim.x, fold);
    acc = block_reduce(acc, fold, Fold::template identity<Acc>());
    if (threadIdx.x == 0) {
      if (gridDim.y == 1) {
        out[row] = finish_sum<Out>(acc, len, mean);
      } else {
        partials[row * gridDim.y + blockIdx.y] = acc;
      }
    }
  }
}

// Output j = (o, i) is column i of slab o; lanes y = 0..7 take every 8th row of the piece.
template <class In, class Out, class Fold>
__global__ void __launch_bounds__(kReduceThreads)
    sum_columns_kernel(Out* out, sum_acc_t<Out>* partials, const In* in, int64_t outer,
                       int64_t len, int64_t inner, int64_t chunk, bool mean) {
  using Acc = sum_acc_t<Out>;
  const Fold fold;
  __shared__ Acc lane_sums[kColumnLanes][kColumnWidth];
  const int64_t outputs = outer * inner;
  const int64_t begin = blockIdx.y * chunk;
  const int64_t end = std::min(len, begin + chunk);
  for (int64_t tile = blockIdx.x; tile * kColumnWidth < outputs; tile += gridDim.x) {
    const int64_t j = tile * kColumnWidth + threadIdx.x;
    Acc acc = Fold::template identity<Acc>();
    if (j < outputs) {
      const int64_t o = j / inner, i = j - o * inner;
      acc = sum_strided<Acc>(in + o * len * inner + i, inner, begin + threadIdx.y, end,
                             kColumnLanes, fold);
    }
    lane_sums[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && j < outputs) {
      for (int k = 1; k < kColumnLanes; ++k) acc = fold(acc, lane_sums[k][threadIdx.x]);
      if (gridDim.y == 1) {
        out[j] = finish_sum<Out>(acc, len, mean);
      } else {
        partials[j * gridDim.y + blockIdx.y] = acc;
      }
    }
    __syncthreads();
  }
}

// A warp per output combines its `splits` partials.
template <class Out, class Fold>
__global__ void __launch_bounds__(kReduceThreads)
    sum_finish_kernel(Out* out, const sum_acc_t<Out>* partials, int64_t outputs, int64_t splits,
                      int64_t len, bool mean) {
  using Acc = sum_acc_t<Out>;
  const Fold fold;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t warps_per_block = blockDim.x / kWarpSize;
  const int64_t stride = gridDim.x * warps_per_block;
  for (int64_t j = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize; j < outputs;
       j += stride) {
    Acc acc = Fold::template identity<Acc>();
    for (int64_t s = lane; s < splits; s += kWarpSize) acc = fold(acc, partials[j * splits + s]);
    acc = warp_reduce(acc, fold);
    if (lane == 0) out[j] = finish_sum<Out>(acc, len, mean);
  }
}

template <class In, class Out, class Fold>
void launch_sum(const Tensor& out, const Tensor& in, ReduceShape s, bool mean) {
  using Acc = sum_acc_t<Out>;
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  Out* dst = static_cast<Out*>(out.raw_data());
  const In* src = static_cast<const In*>(in.raw_data());
  const int64_t outputs = s.outer * s.inner;
  const GpuReducePlan plan = plan_gpu_reduction(s, ctx);
  Tensor scratch;
  Acc* partials = nullptr;
  if (plan.splits > 1) {
    scratch =
        scratch_bytes(outputs * plan.splits * static_cast<int64_t>(sizeof(Acc)), out.device());
    partials = static_cast<Acc*>(scratch.raw_data());
  }
  const dim3 grid(plan.grid_x, static_cast<unsigned>(plan.splits));
  switch (plan.kind) {
    case GpuReducePlan::Kind::WarpPerRow:
      sum_warp_rows_kernel<In, Out, Fold>
          <<<plan.grid_x, kReduceThreads, 0, stream>>>(dst, src, s.outer, s.reduced, mean);
      break;
    case GpuReducePlan::Kind::BlockPerRow:
      sum_block_rows_kernel<In, Out, Fold><<<grid, kReduceThreads, 0, stream>>>(
          dst, partials, src, s.outer, s.reduced, plan.chunk, mean);
      break;
    case GpuReducePlan::Kind::Columns:
      sum_columns_kernel<In, Out, Fold><<<grid, dim3(kColumnWidth, kColumnLanes), 0, stream>>>(
          dst, partials, src, s.outer, s.reduced, s.inner, plan.chunk, mean);
      break;
  }
  TIDE_CUDA_CHECK(cudaGetLastError());
  if (plan.splits > 1) {
    const unsigned blocks = grid_for(ceil_div(outputs, kReduceThreads / kWarpSize), ctx,
                                        kReduceThreads);
    sum_finish_kernel<Out, Fold><<<blocks, kReduceThreads, 0, stream>>>(dst, partials, outputs,
                                                                  plan.splits, s.reduced, mean);
    TIDE_CUDA_CHECK(cudaGetLastError());
  }
}

template <class Fold>
void launch_fold(const Tensor& out, const Tensor& in, ReduceShape shape, bool mean) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && kernels::dense(out));
  TIDE_INTERNAL_ASSERT(out.numel() == shape.outer * shape.inner);
  TIDE_INTERNAL_ASSERT(!mean || out.dtype() == in.dtype());
  if (out.numel() == 0) return;
  kernels::with_fold_pointers(out, in, [&](const auto* src, auto* dst) {
    using In = std::remove_const_t<std::remove_pointer_t<decltype(src)>>;
    using Out = std::remove_pointer_t<decltype(dst)>;
    launch_sum<In, Out, Fold>(out, in, shape, mean);
  });
}

}  // namespace

void sum_cuda(const Tensor& out, const Tensor& in, ReduceShape shape, bool mean) {
  launch_fold<kernels::SumFold>(out, in, shape, mean);
}

void prod_cuda(const Tensor& out, const Tensor& in, ReduceShape shape) {
  launch_fold<kernels::ProdFold>(out, in, shape, false);
}

}  // namespace tide::kernels::cuda
