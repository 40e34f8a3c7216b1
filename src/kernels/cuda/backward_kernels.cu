// GPU launchers of the backward stubs: index_add (index_select's backward), scatter_dim (max and
// min along a dim, sort and topk) and nll_loss's backward, as the cpu loops in
// kernels/cpu/backward_kernels.cpp.
//
// Note [GPU backward kernels]: index_add adds with atomics, one thread per source element, so
// repeated indices accumulate in an unspecified order (as torch's index_add_ on GPUs; results
// match the cpu within float tolerance, test::matches_cpu). It runs on float32 and float64 only:
// the autograd front end accumulates half-precision gradients in float32. nll_loss's backward
// zeroes the gradient with one memset and then writes its N entries from one block, which also
// sums the total weight for Mean in a fixed order (warp trees, then warps in order).

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/backward_launchers.h"
#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/launch_config.h"
#include "kernels/convert.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels::cuda {
namespace {

using kernels::compute_t;
using kernels::convert;
using kernels::LossReduction;

constexpr int kIndexAddThreads = 256;
constexpr int kLossBackwardThreads = 1024;

template <class T, class Index>
__global__ void __launch_bounds__(kIndexAddThreads)
    index_add_kernel(T* out, const T* src, const Index* index, int64_t outer, int64_t size,
                     int64_t n, int64_t inner) {
  const int64_t total = outer * n * inner;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = e / inner, i = e - row * inner;
    const int64_t o = row / n, j = row - o * n;
    const int64_t v = static_cast<int64_t>(index[j]);
    if (v < 0 || v >= size) continue;
    atomicAdd(out + (o * size + v) * inner + i, src[e]);
  }
}

template <class T, class Index>
void launch_index_add(const Tensor& out, const Tensor& src, const Index* index,
                      const kernels::ReduceShape& around, int64_t n) {
  const LaunchContext& ctx = current_launch();
  const int64_t total = around.outer * n * around.inner;
  if (total == 0) return;
  index_add_kernel<T, Index>
      <<<grid_for(ceil_div(total, kIndexAddThreads), ctx, kIndexAddThreads), kIndexAddThreads, 0,
         ctx.stream>>>(static_cast<T*>(out.raw_data()), static_cast<const T*>(src.raw_data()),
                       index, around.outer, around.reduced, n, around.inner);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void index_add_typed(const Tensor& out, const Tensor& src, const Tensor& index,
                     const kernels::ReduceShape& around) {
  const int64_t n = index.numel();
  if (index.dtype() == kInt32) {
    launch_index_add<T>(out, src, static_cast<const int32_t*>(index.raw_data()), around, n);
  } else {
    launch_index_add<T>(out, src, static_cast<const int64_t*>(index.raw_data()), around, n);
  }
}

constexpr int kScatterThreads = 256;

template <class U>
__global__ void __launch_bounds__(kScatterThreads)
    scatter_dim_kernel(U* out, const U* src, const int64_t* index, int64_t outer, int64_t size,
                       int64_t inner, int64_t k) {
  const int64_t total = outer * k * inner;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = e / (k * inner), i = e % inner;
    const int64_t v = index[e];
    if (v >= 0 && v < size) out[(o * size + v) * inner + i] = src[e];
  }
}

template <class U>
void launch_scatter_dim(const Tensor& out, const Tensor& src, const Tensor& index,
                        const kernels::ReduceShape& around) {
  const LaunchContext& ctx = current_launch();
  const int64_t lines = around.outer * around.inner;
  const int64_t k = src.numel() / lines;
  const int64_t total = lines * k;
  scatter_dim_kernel<U><<<grid_for(ceil_div(total, kScatterThreads), ctx, kScatterThreads),
                          kScatterThreads, 0, ctx.stream>>>(
      static_cast<U*>(out.raw_data()), static_cast<const U*>(src.raw_data()),
      static_cast<const int64_t*>(index.raw_data()), around.outer, around.reduced, around.inner,
      k);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

template <class T, class Target>
__global__ void __launch_bounds__(kLossBackwardThreads)
    nll_loss_backward_kernel(T* grad_input, const T* grad_output, const Target* target,
                             const T* weight, int64_t n, int64_t classes, int64_t ignore_index,
                             LossReduction reduction) {
  using C = compute_t<T>;
  __shared__ double warp_weights[kLossBackwardThreads / kWarpSize];
  __shared__ double total_weight;
  if (reduction == LossReduction::Mean) {
    double w_sum = 0;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
      const int64_t t = static_cast<int64_t>(target[i]);
      if (t == ignore_index || t < 0 || t >= classes) continue;
      w_sum += weight != nullptr ? static_cast<double>(convert<C>(weight[t])) : 1.0;
    }
    w_sum = warp_reduce(w_sum, SumOp<double>{});
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
    if (lane == 0) warp_weights[warp] = w_sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      double total = 0;
      for (int k = 0; k < static_cast<int>(blockDim.x) / kWarpSize; ++k) total += warp_weights[k];
      total_weight = total;
    }
    __syncthreads();
  }
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index || t < 0 || t >= classes) continue;
    const C w = weight != nullptr ? convert<C>(weight[t]) : C(1);
    C g = convert<C>(grad_output[reduction == LossReduction::None ? i : 0]);
    if (reduction == LossReduction::Mean) g = static_cast<C>(static_cast<double>(g) / total_weight);
    grad_input[i * classes + t] = convert<T>(-w * g);
  }
}

template <class T, class Target>
void launch_nll_loss_backward(const Tensor& grad_input, const Tensor& grad_output,
                              const Tensor& target, const Tensor& weight, LossReduction reduction,
                              int64_t ignore_index) {
  const LaunchContext& ctx = current_launch();
  const int64_t n = grad_input.shape()[0], classes = grad_input.shape()[1];
  if (grad_input.numel() == 0) return;
  // All-zero bits are 0.0 in every floating dtype.
  TIDE_CUDA_CHECK(cudaMemsetAsync(grad_input.raw_data(), 0, grad_input.nbytes(), ctx.stream));
  nll_loss_backward_kernel<T, Target><<<1, kLossBackwardThreads, 0, ctx.stream>>>(
      static_cast<T*>(grad_input.raw_data()), static_cast<const T*>(grad_output.raw_data()),
      static_cast<const Target*>(target.raw_data()),
      weight.defined() ? static_cast<const T*>(weight.raw_data()) : nullptr, n, classes,
      ignore_index, reduction);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void index_add_cuda(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && kernels::dense(src) && kernels::dense(index));
  TIDE_INTERNAL_ASSERT(out.dtype() == src.dtype());
  TIDE_INTERNAL_ASSERT(index.dtype() == kInt64 || index.dtype() == kInt32);
  const kernels::ReduceShape around = kernels::split_at_dim(out.shape(), dim);
  if (out.dtype() == kFloat32) {
    index_add_typed<float>(out, src, index, around);
  } else {
    TIDE_INTERNAL_ASSERT(out.dtype() == kFloat64, "index_add_cuda runs on float32 and float64");
    index_add_typed<double>(out, src, index, around);
  }
}

void scatter_dim_cuda(const Tensor& out, const Tensor& src, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && kernels::dense(src) && kernels::dense(index));
  TIDE_INTERNAL_ASSERT(out.dtype() == src.dtype() && index.dtype() == kInt64);
  if (out.numel() == 0) return;
  const kernels::ReduceShape around = kernels::split_at_dim(out.shape(), dim);
  // All-zero bits are 0 in every dtype; elements then move as unsigned words of their size.
  TIDE_CUDA_CHECK(cudaMemsetAsync(out.raw_data(), 0, out.nbytes(), current_launch().stream));
  if (src.numel() == 0) return;  // topk with k = 0: nothing to place
  switch (out.element_size()) {
    case 1:
      launch_scatter_dim<uint8_t>(out, src, index, around);
      break;
    case 2:
      launch_scatter_dim<uint16_t>(out, src, index, around);
      break;
    case 4:
      launch_scatter_dim<uint32_t>(out, src, index, around);
      break;
    default:
      TIDE_INTERNAL_ASSERT(out.element_size() == 8);
      launch_scatter_dim<uint64_t>(out, src, index, around);
      break;
  }
}

void nll_loss_backward_cuda(const Tensor& grad_input, const Tensor& grad_output,
                            const Tensor& target, const Tensor& weight, LossReduction reduction,
                            int64_t ignore_index) {
  TIDE_INTERNAL_ASSERT(grad_input.dim() == 2 && kernels::dense(grad_input) &&
                       kernels::dense(grad_output) && kernels::dense(target));
  TIDE_INTERNAL_ASSERT(target.dtype() == kInt64 || target.dtype() == kUInt8);
  TIDE_INTERNAL_ASSERT(grad_output.dtype() == grad_input.dtype());
  TIDE_INTERNAL_ASSERT(!weight.defined() ||
                       (kernels::dense(weight) && weight.dtype() == grad_input.dtype()));
  dispatch_dtype(grad_input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      if (target.dtype() == kUInt8) {
        launch_nll_loss_backward<T, uint8_t>(grad_input, grad_output, target, weight, reduction,
                                             ignore_index);
      } else {
        launch_nll_loss_backward<T, int64_t>(grad_input, grad_output, target, weight, reduction,
                                             ignore_index);
      }
    } else {
      TIDE_INTERNAL_ASSERT(false, "nll_loss_backward_cuda needs a floating gradient");
    }
  });
}

}  // namespace tide::kernels::cuda
