#pragma once
// The fused optimizer updates on the cpu (and on simulated GPUs, whose streams run these loops):
// one pass over a parameter per step, the element rule in kernels/optim_functors.h.

#include <type_traits>

#include "kernels/convert.h"
#include "kernels/optim_functors.h"
#include "tide/dtype.h"
#include "tide/error.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// f(tag) for a floating `dtype`'s type tag (the cpu loops' and the GPU launchers' dispatch);
/// `what` names the kernel in the internal error another dtype is.
template <class F>
void dispatch_floating(Dtype dtype, const char* what, F&& f) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      f(tag);
    } else {
      TIDE_INTERNAL_ASSERT(false, "the fused optimizer kernel ", what, " needs a floating parameter");
    }
  });
}

/// One SGD step of `param` with `grad`; `momentum_buffer` is read and written when
/// hyper.momentum != 0 (only written on hyper.first_step) and may be undefined otherwise.
/// Every tensor is contiguous, of one floating dtype and one shape, on one device.
void sgd_kernel(const Tensor& param, const Tensor& grad, const Tensor& momentum_buffer,
                const SgdHyper& hyper);

/// One Adam step of `param` with `grad`, updating the running averages in place;
/// `max_exp_avg_sq` is used when hyper.amsgrad and may be undefined otherwise. Same layout
/// rules as sgd_kernel. AdamW is this kernel with hyper.decoupled_weight_decay.
void adam_kernel(const Tensor& param, const Tensor& grad, const Tensor& exp_avg,
                 const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq, const AdamHyper& hyper);

/// One RMSprop step of `param` with `grad`, updating `square_avg`, and `grad_avg` when
/// hyper.centered, `momentum_buffer` when hyper.momentum > 0 (each may be undefined when not
/// used). Same layout rules as sgd_kernel.
void rmsprop_kernel(const Tensor& param, const Tensor& grad, const Tensor& square_avg,
                    const Tensor& grad_avg, const Tensor& momentum_buffer,
                    const RmspropHyper& hyper);

/// One Adagrad step of `param` with `grad`, adding the squared gradient to `sum`. Same layout
/// rules as sgd_kernel.
void adagrad_kernel(const Tensor& param, const Tensor& grad, const Tensor& sum,
                    const AdagradHyper& hyper);

}  // namespace tide::kernels
