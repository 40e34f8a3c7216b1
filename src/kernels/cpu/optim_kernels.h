#pragma once
// The fused optimizer updates on the cpu (and on simulated GPUs, whose streams run these loops):
// one pass over a parameter per step, the element rule in kernels/optim_functors.h.

#include "kernels/optim_functors.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// One SGD step of `param` with `grad`; `momentum_buffer` is read and written when
/// hyper.momentum != 0 (only written on hyper.first_step) and may be undefined otherwise.
/// Every tensor is contiguous, of one floating dtype and one shape, on one device.
void sgd_kernel(const Tensor& param, const Tensor& grad, const Tensor& momentum_buffer,
                const SgdHyper& hyper);

/// One Adam step of `param` with `grad`, updating the running averages in place;
/// `max_exp_avg_sq` is used when hyper.amsgrad and may be undefined otherwise. Same layout
/// rules as sgd_kernel.
void adam_kernel(const Tensor& param, const Tensor& grad, const Tensor& exp_avg,
                 const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq, const AdamHyper& hyper);

}  // namespace tide::kernels
