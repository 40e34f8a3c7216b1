#include "optim/adagrad_step.h"

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "optim/step_checks.h"

namespace tide::optim::detail {

void adagrad_step_(Tensor& param, const Tensor& grad, Tensor& sum, int64_t step,
                   const AdagradOptions& options) {
  const char* where = "optim::Adagrad::step";
  options.validate();
  TIDE_CHECK(step >= 1, "[", where, "] expected step >= 1 (the number of this update of the "
             "parameter, 1 on its first), found ", step,
             "; increment the parameter's step count before the update, as torch does");
  check_parameter(param, where);
  check_like_parameter(grad, param, where, "grad");
  check_state(sum, param, where, "sum");
  if (param.numel() == 0) return;

  const kernels::AdagradHyper hyper{options.lr(), options.lr_decay(), options.weight_decay(),
                                    options.eps(), options.maximize(), step};
  const Tensor g = contiguous_operand(grad);
  update_contiguous(param, [&](const Tensor& p) {
    tide::detail::run_kernel(p.device(), "adagrad_step", kernels::adagrad_stub, p, g, sum, hyper);
  });
}

}  // namespace tide::optim::detail
