#include "optim/sgd_step.h"

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "optim/step_checks.h"

namespace tide::optim::detail {

void sgd_step_(Tensor& param, const Tensor& grad, Tensor& momentum_buffer,
               const SGDOptions& options, bool first_step) {
  const char* where = "optim::SGD::step";
  options.validate();
  check_parameter(param, where);
  check_like_parameter(grad, param, where, "grad");
  const bool use_buffer = options.momentum() != 0;
  if (use_buffer) check_state(momentum_buffer, param, where, "momentum_buffer");
  if (param.numel() == 0) return;

  const kernels::SgdHyper hyper{options.lr(),       options.momentum(), options.dampening(),
                                options.weight_decay(), options.nesterov(), options.maximize(),
                                first_step};
  const Tensor g = contiguous_operand(grad);
  const Tensor buf = use_buffer ? momentum_buffer : Tensor();
  update_contiguous(param, [&](const Tensor& p) {
    tide::detail::run_kernel(p.device(), "sgd_step", kernels::sgd_stub, p, g, buf, hyper);
  });
}

}  // namespace tide::optim::detail
