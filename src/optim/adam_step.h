#pragma once
// The fused Adam update of one parameter: what Adam::step does for each parameter with a
// gradient, as one kernel on the parameter's device (Note [Fused optimizer steps] in
// optim/sgd_step.h; the Adam class itself comes with autograd).

#include <cstdint>

#include "tide/optim/adam_options.h"
#include "tide/optim/adamw_options.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// One step of torch's Adam (libtorch's Adam::step, torch.optim.Adam) for `param`: updates
/// the running averages `exp_avg` and `exp_avg_sq` (zeros before the first step, as torch
/// creates them) and, with amsgrad, their running maximum `max_exp_avg_sq` (zeros too;
/// undefined allowed without amsgrad), then the parameter. `step` is this update's number
/// for this parameter — the state's step count after torch's increment, 1 on the first
/// update — from which the bias corrections are computed. Raises tide::Error for invalid
/// options or tensors, naming "[optim::Adam::step]".
void adam_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                Tensor& max_exp_avg_sq, int64_t step, const AdamOptions& options);

/// One step of torch's AdamW (torch.optim.AdamW, libtorch's AdamW::step): adam_step_ with the
/// parameter first shrunk by 1 - lr * weight_decay instead of the gradient decayed. Raises
/// naming "[optim::AdamW::step]".
void adamw_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                 Tensor& max_exp_avg_sq, int64_t step, const AdamWOptions& options);

}  // namespace tide::optim::detail
