#pragma once
// The checks every fused optimizer step makes on its tensors before its one launch.

#include "tide/tensor.h"

namespace tide::optim::detail {

/// Raises unless `param` is a defined floating-point tensor (the only kind torch optimizes).
void check_parameter(const Tensor& param, const char* where);

/// Raises unless `t` (the gradient or a state tensor, named `what`) is defined and has the
/// parameter's device, dtype and shape: an optimizer updates each parameter on its own
/// device, with its gradient and state beside it.
void check_like_parameter(const Tensor& t, const Tensor& param, const char* where,
                          const char* what);

/// check_like_parameter, and contiguous: the state tensors are the optimizer's own, made with
/// empty_like/zeros_like of a contiguous parameter, so a strided one is a misuse.
void check_state(const Tensor& t, const Tensor& param, const char* where, const char* what);

/// `t` with contiguous memory: itself when it already is, else a contiguous copy (enqueued on
/// its device's current stream, before the step that reads it).
inline Tensor contiguous_operand(const Tensor& t) { return t.is_contiguous() ? t : t.contiguous(); }

/// `launch(p)` with p the parameter itself when it is contiguous, else a contiguous copy that
/// is written back after (Note [Fused optimizer steps] in optim/sgd_step.h).
template <class Launch>
void update_contiguous(Tensor& param, Launch&& launch) {
  if (param.is_contiguous()) {
    launch(param);
    return;
  }
  const Tensor p = param.contiguous();
  launch(p);
  param.copy_(p);
}

}  // namespace tide::optim::detail
