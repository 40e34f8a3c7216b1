#pragma once
// The fused SGD update of one parameter: what SGD::step does for each parameter with a
// gradient, as one kernel on the parameter's device (the SGD class itself comes with
// autograd, which gives parameters their grad()).

#include "tide/optim/sgd_options.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// Note [Fused optimizer steps]: one step of one parameter is one launch on the parameter's
/// device's current stream (never the current device's), like any op (Note [Running kernels
/// on their device]); it returns at once on GPUs. The element rule is torch's (Note [Fused
/// optimizer arithmetic]). Gradient and state must sit on the parameter's device with its
/// dtype and shape; state tensors are contiguous. A strided gradient is read through a
/// contiguous copy; a strided parameter is updated through a contiguous copy that is written
/// back (two more launches, in stream order): parameters are contiguous in practice, and one
/// layout in the kernels keeps them simple and spill-free.

/// param -= lr * update, torch's SGD (torch.optim.SGD, libtorch's SGD::step). With momentum,
/// `momentum_buffer` is the parameter's buffer: on its `first_step` it is set to the gradient
/// (after weight decay), as torch's clone, so it may be uninitialized memory then
/// (empty_like(param)); later steps read and update it. Without momentum it is not used and
/// may be undefined. Raises tide::Error for invalid options or tensors, naming
/// "[optim::SGD::step]".
void sgd_step_(Tensor& param, const Tensor& grad, Tensor& momentum_buffer,
               const SGDOptions& options, bool first_step);

}  // namespace tide::optim::detail
