#pragma once
// The fused Adagrad update of one parameter (Note [Fused optimizer steps] in optim/sgd_step.h).

#include <cstdint>

#include "tide/optim/adagrad_options.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// One step of torch's Adagrad (torch.optim.Adagrad, dense gradients) for `param`: adds the
/// squared gradient to `sum` (initial_accumulator_value everywhere before the first step),
/// then updates the parameter with the learning rate decayed for update number `step` (1 on
/// the first). Raises tide::Error for invalid options or tensors, naming
/// "[optim::Adagrad::step]".
void adagrad_step_(Tensor& param, const Tensor& grad, Tensor& sum, int64_t step,
                   const AdagradOptions& options);

}  // namespace tide::optim::detail
