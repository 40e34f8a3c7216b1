#pragma once
// The fused RMSprop update of one parameter (Note [Fused optimizer steps] in optim/sgd_step.h).

#include "tide/optim/rmsprop_options.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// One step of torch's RMSprop (torch.optim.RMSprop) for `param`: updates `square_avg` (zeros
/// before the first step), `grad_avg` when centered and `momentum_buffer` when momentum > 0
/// (zeros before their first step; either may be undefined when not used), then the
/// parameter. Raises tide::Error for invalid options or tensors, naming
/// "[optim::RMSprop::step]".
void rmsprop_step_(Tensor& param, const Tensor& grad, Tensor& square_avg, Tensor& grad_avg,
                   Tensor& momentum_buffer, const RMSpropOptions& options);

}  // namespace tide::optim::detail
