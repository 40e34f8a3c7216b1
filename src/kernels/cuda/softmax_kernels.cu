// GPU launcher of softmax_stub: softmax and log_softmax over the middle dim of a ReduceShape,
// with the cpu's formulas (kernels/cpu/softmax_kernels.cpp): the slice's max is subtracted
// before exp, log_softmax is (x - max) - log(sum), 16-bit floats compute in float.
//
// Note [GPU softmax shapes]: contiguous slices (inner == 1) up to kWarpRowMax long take a warp
// each, longer ones a block each; strided slices (inner > 1) take a 32 x 8 block per 32
// neighbouring columns, the 8 lanes of a column splitting its rows. Each kernel reads the
// slice three times (max, sum, write); the repeats mostly hit the caches.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/cuda/reduce_plan.h"
#include "kernels/convert.h"

namespace tide::kernels::cuda {
namespace {

// The loops that call exp or write outputs are not unrolled (`#pragma unroll 1`): unrolled,
// several exp/log evaluations in flight spill registers to local memory (float64 most), as
// scripts/cuda-resources shows.

using kernels::compute_t;
using kernels::convert;
using kernels::ReduceShape;

constexpr int kSoftmaxThreads = 256;
constexpr int kSoftmaxBlockRowThreads = 512;

/// One output from its input, the slice max `m` and `norm`: the sum of exp(x - m), or its log
/// for log_softmax.
template <class T, bool Log, class C>
__device__ inline T softmax_value(T x, C m, C norm) {
  const C v = convert<C>(x);
  if constexpr (Log) {
    return convert<T>((v - m) - norm);
  } else {
    return convert<T>(std::exp(v - m) / norm);
  }
}

template <class C, bool Log>
__device__ inline C normalizer(C sum) {
  if constexpr (Log) {
    return std::log(sum);
  } else {
    return sum;
  }
}

template <class T>
__device__ inline T broadcast_lane0(T v) {
  return __shfl_sync(kFullWarp, v, 0);
}

template <class T, bool Log>
__global__ void __launch_bounds__(kSoftmaxThreads)
    softmax_warp_rows_kernel(T* out, const T* in, int64_t rows, int64_t len) {
  using C = compute_t<T>;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t warps_per_block = blockDim.x / kWarpSize;
  const int64_t stride = gridDim.x * warps_per_block;
  for (int64_t row = blockIdx.x * warps_per_block + threadIdx.x / kWarpSize; row < rows;
       row += stride) {
    const T* p = in + row * len;
    T* q = out + row * len;
    C m = -std::numeric_limits<C>::infinity();
    for (int64_t i = lane; i < len; i += kWarpSize) m = MaxOp<C>{}(m, convert<C>(p[i]));
    m = broadcast_lane0(warp_reduce(m, MaxOp<C>{}));
    C sum = C(0);
    #pragma unroll 1
    for (int64_t i = lane; i < len; i += kWarpSize) sum += std::exp(convert<C>(p[i]) - m);
    const C norm = normalizer<C, Log>(broadcast_lane0(warp_reduce(sum, SumOp<C>{})));
#pragma unroll 1
    for (int64_t i = lane; i < len; i += kWarpSize) q[i] = softmax_value<T, Log>(p[i], m, norm);
  }
}

template <class T, bool Log>
__global__ void __launch_bounds__(kSoftmaxBlockRowThreads)
    softmax_block_rows_kernel(T* out, const T* in, int64_t rows, int64_t len) {
  using C = compute_t<T>;
  const C lowest = -std::numeric_limits<C>::infinity();
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* p = in + row * len;
    T* q = out + row * len;
    C m = lowest;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) m = MaxOp<C>{}(m, convert<C>(p[i]));
    m = block_all_reduce(m, MaxOp<C>{}, lowest);
    C sum = C(0);
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) sum += std::exp(convert<C>(p[i]) - m);
    const C norm = normalizer<C, Log>(block_all_reduce(sum, SumOp<C>{}, C(0)));
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
      q[i] = softmax_value<T, Log>(p[i], m, norm);
    }
  }
}

/// Combines the kColumnLanes values of each column in `scratch` (lane y wrote row y) and hands
/// the result to every lane of the column.
template <class C, class Op>
__device__ inline C column_all_reduce(C v, C (*scratch)[kColumnWidth], Op op) {
  scratch[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.y == 0) {
    for (int k = 1; k < kColumnLanes; ++k) v = op(v, scratch[k][threadIdx.x]);
    scratch[0][threadIdx.x] = v;
  }
  __syncthreads();
  v = scratch[0][threadIdx.x];
  __syncthreads();  // the next call overwrites scratch
  return v;
}

template <class T, bool Log>
__global__ void __launch_bounds__(kColumnWidth * kColumnLanes)
    softmax_columns_kernel(T* out, const T* in, int64_t outer, int64_t len, int64_t inner) {
  using C = compute_t<T>;
  __shared__ C scratch[kColumnLanes][kColumnWidth];
  const int64_t outputs = outer * inner;
  for (int64_t tile = blockIdx.x; tile * kColumnWidth < outputs; tile += gridDim.x) {
    const int64_t j = tile * kColumnWidth + threadIdx.x;
    const bool valid = j < outputs;
    const int64_t o = valid ? j / inner : 0;
    const int64_t offset = valid ? o * len * inner + (j - o * inner) : 0;
    const T* p = in + offset;
    T* q = out + offset;
    const int64_t rows = valid ? len : 0;
    C m = -std::numeric_limits<C>::infinity();
    for (int64_t r = threadIdx.y; r < rows; r += kColumnLanes) {
      m = MaxOp<C>{}(m, convert<C>(p[r * inner]));
    }
    m = column_all_reduce(m, scratch, MaxOp<C>{});
    C sum = C(0);
#pragma unroll 1
    for (int64_t r = threadIdx.y; r < rows; r += kColumnLanes) {
      sum += std::exp(convert<C>(p[r * inner]) - m);
    }
    const C norm = normalizer<C, Log>(column_all_reduce(sum, scratch, SumOp<C>{}));
    for (int64_t r = threadIdx.y; r < rows; r += kColumnLanes) {
      q[r * inner] = softmax_value<T, Log>(p[r * inner], m, norm);
    }
  }
}

template <class T, bool Log>
void launch_softmax(T* out, const T* in, ReduceShape s) {
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  if (s.inner == 1 && s.reduced <= kWarpRowMax) {
    const int64_t warps_per_block = kSoftmaxThreads / kWarpSize;
    softmax_warp_rows_kernel<T, Log>
        <<<grid_for(ceil_div(s.outer, warps_per_block), ctx, kSoftmaxThreads),
           kSoftmaxThreads, 0, stream>>>(out, in, s.outer, s.reduced);
  } else if (s.inner == 1) {
    softmax_block_rows_kernel<T, Log>
        <<<grid_for(s.outer, ctx, kSoftmaxBlockRowThreads), kSoftmaxBlockRowThreads, 0,
           stream>>>(out, in, s.outer, s.reduced);
  } else {
    const int64_t tiles = ceil_div(s.outer * s.inner, kColumnWidth);
    softmax_columns_kernel<T, Log>
        <<<grid_for(tiles, ctx, kColumnWidth * kColumnLanes), dim3(kColumnWidth, kColumnLanes),
           0, stream>>>(out, in, s.outer, s.reduced, s.inner);
  }
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void softmax_cuda(const Tensor& out, const Tensor& in, ReduceShape shape, bool log) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && kernels::dense(out) && in.dtype() == out.dtype());
  if (shape.outer * shape.reduced * shape.inner == 0) return;
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      T* o = static_cast<T*>(out.raw_data());
      const T* i = static_cast<const T*>(in.raw_data());
      if (log) {
        launch_softmax<T, true>(o, i, shape);
      } else {
        launch_softmax<T, false>(o, i, shape);
      }
    } else {
      TIDE_INTERNAL_ASSERT(false, "softmax_cuda needs a floating dtype");
    }
  });
}

}  // namespace tide::kernels::cuda
