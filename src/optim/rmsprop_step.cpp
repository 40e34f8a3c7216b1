#include "optim/rmsprop_step.h"

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "optim/step_checks.h"

namespace tide::optim::detail {

void rmsprop_step_(Tensor& param, const Tensor& grad, Tensor& square_avg, Tensor& grad_avg,
                   Tensor& momentum_buffer, const RMSpropOptions& options) {
  const char* where = "optim::RMSprop::step";
  options.validate();
  check_parameter(param, where);
  check_like_parameter(grad, param, where, "grad");
  check_state(square_avg, param, where, "square_avg");
  const bool use_momentum = options.momentum() > 0;
  if (options.centered()) check_state(grad_avg, param, where, "grad_avg");
  if (use_momentum) check_state(momentum_buffer, param, where, "momentum_buffer");
  if (param.numel() == 0) return;

  const kernels::RmspropHyper hyper{options.lr(),       options.alpha(),    options.eps(),
                                    options.weight_decay(), options.momentum(), options.centered(),
                                    options.maximize()};
  const Tensor g = contiguous_operand(grad);
  const Tensor avg = options.centered() ? grad_avg : Tensor();
  const Tensor buf = use_momentum ? momentum_buffer : Tensor();
  update_contiguous(param, [&](const Tensor& p) {
    tide::detail::run_kernel(p.device(), "rmsprop_step", kernels::rmsprop_stub, p, g, square_avg,
                             avg, buf, hyper);
  });
}

}  // namespace tide::optim::detail
