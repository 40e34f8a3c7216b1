// GPU launcher of nll_loss_stub, with the cpu's formulas (kernels/cpu/loss_kernels.cpp):
// loss_i = -w[t_i] * input[i, t_i] in the compute type, Sum and Mean accumulate in double.
//
// Note [GPU nll_loss errors]: a target outside [0, C) (and not ignore_index) is reported to the
// device's error record (Note [Device error records]) and its element is skipped, never read.
// The cpu writes nothing at all then; here None still writes the other samples' losses, and
// Sum/Mean leave `out` untouched (the block sees the error before thread 0 writes). The
// launch's KernelError is raised at the next synchronizing call either way.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/block_reduce.cuh"
#include "backends/cuda/device_errors.cuh"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/convert.h"

namespace tide::kernels::cuda {

using backends::cuda::report_index_error;
namespace {

using kernels::compute_t;
using kernels::convert;
using kernels::LossReduction;

constexpr int kLossThreads = 256;
// Sum and Mean run in one block: batches are small next to a sum's inputs, and one block
// needs no second pass and no temporary.
constexpr int kLossReduceThreads = 1024;

/// Whether target value t may be read, reporting it when it is out of range.
__device__ inline bool usable_target(const ErrorSink& sink, int64_t i, int64_t t, int64_t classes,
                                     int64_t ignore_index) {
  if (t >= 0 && t < classes) return true;
  report_index_error(sink, kernels::IndexErrorKind::NllLossTarget, i, t, classes, ignore_index);
  return false;
}

template <class T, class Target>
__global__ void __launch_bounds__(kLossThreads)
    nll_loss_none_kernel(T* out, const T* input, const Target* target, const T* weight, int64_t n,
                         int64_t classes, int64_t ignore_index, ErrorSink sink) {
  using C = compute_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) {
      out[i] = convert<T>(C(0));
      continue;
    }
    if (!usable_target(sink, i, t, classes, ignore_index)) continue;
    const C w = weight != nullptr ? convert<C>(weight[t]) : C(1);
    out[i] = convert<T>(-w * convert<C>(input[i * classes + t]));
  }
}

template <class T, class Target>
__global__ void __launch_bounds__(kLossReduceThreads)
    nll_loss_reduce_kernel(T* out, const T* input, const Target* target, const T* weight,
                           int64_t n, int64_t classes, int64_t ignore_index, bool mean,
                           ErrorSink sink) {
  using C = compute_t<T>;
  __shared__ double totals[kLossReduceThreads / kWarpSize];
  __shared__ double weights[kLossReduceThreads / kWarpSize];
  double total = 0, total_weight = 0;
  int bad = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) continue;
    if (!usable_target(sink, i, t, classes, ignore_index)) {
      bad = 1;
      continue;
    }
    const C w = weight != nullptr ? convert<C>(weight[t]) : C(1);
    total += static_cast<double>(-w * convert<C>(input[i * classes + t]));
    total_weight += static_cast<double>(w);
  }
  // Two sums through one warp tree each, then across the warps in a fixed order.
  total = warp_reduce(total, SumOp<double>{});
  total_weight = warp_reduce(total_weight, SumOp<double>{});
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  if (lane == 0) {
    totals[warp] = total;
    weights[warp] = total_weight;
  }
  if (__syncthreads_or(bad) != 0) return;  // Note [GPU nll_loss errors]
  if (threadIdx.x != 0) return;
  total = 0;
  total_weight = 0;
  for (int k = 0; k < static_cast<int>(blockDim.x) / kWarpSize; ++k) {
    total += totals[k];
    total_weight += weights[k];
  }
  out[0] = convert<T>(static_cast<C>(mean ? total / total_weight : total));
}

template <class T, class Target>
void launch_nll_loss(const Tensor& out, const Tensor& input, const Tensor& target,
                     const Tensor& weight, LossReduction reduction, int64_t ignore_index) {
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  const int64_t n = input.shape()[0], classes = input.shape()[1];
  T* dst = static_cast<T*>(out.raw_data());
  const T* x = static_cast<const T*>(input.raw_data());
  const Target* t = static_cast<const Target*>(target.raw_data());
  const T* w = weight.defined() ? static_cast<const T*>(weight.raw_data()) : nullptr;
  if (reduction == LossReduction::None) {
    if (n == 0) return;
    nll_loss_none_kernel<T, Target>
        <<<grid_for(ceil_div(n, kLossThreads), ctx, kLossThreads), kLossThreads, 0, stream>>>(
            dst, x, t, w, n, classes, ignore_index, ctx.error_sink());
  } else {
    // Runs for n == 0 too: Sum writes 0 and Mean 0 / 0 = NaN, as the cpu.
    nll_loss_reduce_kernel<T, Target><<<1, kLossReduceThreads, 0, stream>>>(
        dst, x, t, w, n, classes, ignore_index, reduction == LossReduction::Mean,
        ctx.error_sink());
  }
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void nll_loss_cuda(const Tensor& out, const Tensor& input, const Tensor& target,
                   const Tensor& weight, LossReduction reduction, int64_t ignore_index) {
  TIDE_INTERNAL_ASSERT(input.dim() == 2 && kernels::dense(input) && kernels::dense(target));
  TIDE_INTERNAL_ASSERT(target.dtype() == kInt64 || target.dtype() == kUInt8);
  TIDE_INTERNAL_ASSERT(!weight.defined() ||
                       (kernels::dense(weight) && weight.dtype() == input.dtype()));
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && out.dtype() == input.dtype());
  dispatch_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      if (target.dtype() == kUInt8) {
        launch_nll_loss<T, uint8_t>(out, input, target, weight, reduction, ignore_index);
      } else {
        launch_nll_loss<T, int64_t>(out, input, target, weight, reduction, ignore_index);
      }
    } else {
      TIDE_INTERNAL_ASSERT(false, "nll_loss_cuda needs a floating input");
    }
  });
}

}  // namespace tide::kernels::cuda
