// GPU launchers of the fused optimizer steps (sgd_stub, adam_stub, which AdamW shares,
// rmsprop_stub, adagrad_stub) and their registration:
// the cpu's loops (kernels/cpu/optim_kernels.cpp) with the same element rule
// (kernels/optim_functors.h), so a GPU step gives the cpu's numbers (--fmad=false keeps the
// multiply-adds unfused on both sides).
//
// One thread per element in a grid-stride loop, the functor's hyperparameters passed by value
// in the kernel's parameter space: a handful of registers and no local arrays, so nothing
// spills (CI fails an optimizer kernel that does, -Xptxas -warn-spills). Unvectorized: the
// step reads 3 or 5 and writes 2 or 4 streams per element and is bandwidth bound either way.
// Self-contained (no launcher header) so the file moves to src/kernels/cuda/ as it is.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/kernel_registration.h"
#include "kernels/convert.h"
#include "kernels/cpu/reduce_kernels.h"
#include "kernels/optim_functors.h"
#include "kernels/stubs.h"

namespace tide::kernels::cuda {
namespace {

using kernels::compute_t;
using kernels::convert;

constexpr int kOptimThreads = 256;

template <class T>
__global__ void __launch_bounds__(kOptimThreads)
    sgd_step_kernel(T* param, const T* grad, T* buf, int64_t n,
                    kernels::SgdUpdate<compute_t<T>> update) {
  using C = compute_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    // A first step's buffer is fresh memory: never read it.
    C b = buf != nullptr && !update.first_step ? convert<C>(buf[i]) : C(0);
    param[i] = convert<T>(update(convert<C>(param[i]), convert<C>(grad[i]), b));
    if (buf != nullptr) buf[i] = convert<T>(b);
  }
}

template <class T>
__global__ void __launch_bounds__(kOptimThreads)
    adam_step_kernel(T* param, const T* grad, T* exp_avg, T* exp_avg_sq, T* max_exp_avg_sq,
                     int64_t n, kernels::AdamUpdate<compute_t<T>> update) {
  using C = compute_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    C m = convert<C>(exp_avg[i]), v = convert<C>(exp_avg_sq[i]);
    C v_max = max_exp_avg_sq != nullptr ? convert<C>(max_exp_avg_sq[i]) : C(0);
    param[i] = convert<T>(update(convert<C>(param[i]), convert<C>(grad[i]), m, v, v_max));
    exp_avg[i] = convert<T>(m);
    exp_avg_sq[i] = convert<T>(v);
    if (max_exp_avg_sq != nullptr) max_exp_avg_sq[i] = convert<T>(v_max);
  }
}

template <class T>
__global__ void __launch_bounds__(kOptimThreads)
    rmsprop_step_kernel(T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, int64_t n,
                        kernels::RmspropUpdate<compute_t<T>> update) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    kernels::rmsprop_element(i, param, grad, square_avg, grad_avg, buf, update);
  }
}

template <class T>
__global__ void __launch_bounds__(kOptimThreads)
    adagrad_step_kernel(T* param, const T* grad, T* sum, int64_t n,
                        kernels::AdagradUpdate<compute_t<T>> update) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    kernels::adagrad_element(i, param, grad, sum, update);
  }
}

template <class T>
T* data_or_null(const Tensor& t) {
  return t.defined() ? static_cast<T*>(t.raw_data()) : nullptr;
}

unsigned optim_grid(int64_t n, const LaunchContext& ctx) {
  return grid_for(ceil_div(n, kOptimThreads), ctx, kOptimThreads);
}

void sgd_cuda(const Tensor& param, const Tensor& grad, const Tensor& momentum_buffer,
              const kernels::SgdHyper& hyper) {
  const bool use_buffer = hyper.momentum != 0;
  TIDE_INTERNAL_ASSERT(kernels::dense(param) && kernels::dense(grad) &&
                       grad.dtype() == param.dtype());
  TIDE_INTERNAL_ASSERT(!use_buffer || (kernels::dense(momentum_buffer) &&
                                       momentum_buffer.dtype() == param.dtype()));
  const int64_t n = param.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  dispatch_dtype(param.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      sgd_step_kernel<T><<<optim_grid(n, ctx), kOptimThreads, 0, ctx.stream>>>(
          static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
          use_buffer ? data_or_null<T>(momentum_buffer) : nullptr, n,
          kernels::SgdUpdate<compute_t<T>>::from(hyper));
    } else {
      TIDE_INTERNAL_ASSERT(false, "sgd_cuda needs a floating parameter");
    }
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void adam_cuda(const Tensor& param, const Tensor& grad, const Tensor& exp_avg,
               const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq,
               const kernels::AdamHyper& hyper) {
  TIDE_INTERNAL_ASSERT(kernels::dense(param) && kernels::dense(grad) &&
                       kernels::dense(exp_avg) && kernels::dense(exp_avg_sq));
  TIDE_INTERNAL_ASSERT(!hyper.amsgrad || kernels::dense(max_exp_avg_sq));
  const int64_t n = param.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  dispatch_dtype(param.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      adam_step_kernel<T><<<optim_grid(n, ctx), kOptimThreads, 0, ctx.stream>>>(
          static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
          static_cast<T*>(exp_avg.raw_data()), static_cast<T*>(exp_avg_sq.raw_data()),
          hyper.amsgrad ? data_or_null<T>(max_exp_avg_sq) : nullptr, n,
          kernels::AdamUpdate<compute_t<T>>::from(hyper));
    } else {
      TIDE_INTERNAL_ASSERT(false, "adam_cuda needs a floating parameter");
    }
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void rmsprop_cuda(const Tensor& param, const Tensor& grad, const Tensor& square_avg,
                  const Tensor& grad_avg, const Tensor& momentum_buffer,
                  const kernels::RmspropHyper& hyper) {
  TIDE_INTERNAL_ASSERT(kernels::dense(param) && kernels::dense(grad) &&
                       kernels::dense(square_avg));
  TIDE_INTERNAL_ASSERT(!hyper.centered || kernels::dense(grad_avg));
  TIDE_INTERNAL_ASSERT(hyper.momentum <= 0 || kernels::dense(momentum_buffer));
  const int64_t n = param.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  kernels::dispatch_floating(param.dtype(), "rmsprop_cuda", [&](auto tag) {
    using T = typename decltype(tag)::type;
    rmsprop_step_kernel<T><<<optim_grid(n, ctx), kOptimThreads, 0, ctx.stream>>>(
        static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
        static_cast<T*>(square_avg.raw_data()),
        hyper.centered ? data_or_null<T>(grad_avg) : nullptr,
        hyper.momentum > 0 ? data_or_null<T>(momentum_buffer) : nullptr, n,
        kernels::RmspropUpdate<compute_t<T>>::from(hyper));
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void adagrad_cuda(const Tensor& param, const Tensor& grad, const Tensor& sum,
                  const kernels::AdagradHyper& hyper) {
  TIDE_INTERNAL_ASSERT(kernels::dense(param) && kernels::dense(grad) && kernels::dense(sum));
  const int64_t n = param.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  kernels::dispatch_floating(param.dtype(), "adagrad_cuda", [&](auto tag) {
    using T = typename decltype(tag)::type;
    adagrad_step_kernel<T><<<optim_grid(n, ctx), kOptimThreads, 0, ctx.stream>>>(
        static_cast<T*>(param.raw_data()), static_cast<const T*>(grad.raw_data()),
        static_cast<T*>(sum.raw_data()), n, kernels::AdagradUpdate<compute_t<T>>::from(hyper));
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void register_optim_kernels() {
  kernels::sgd_stub.cuda = &sgd_cuda;
  kernels::adam_stub.cuda = &adam_cuda;
  kernels::rmsprop_stub.cuda = &rmsprop_cuda;
  kernels::adagrad_stub.cuda = &adagrad_cuda;
}

}  // namespace tide::kernels::cuda
