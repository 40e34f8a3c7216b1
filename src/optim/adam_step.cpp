#include "optim/adam_step.h"

#include <tuple>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "optim/step_checks.h"

namespace tide::optim::detail {

void adam_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                Tensor& max_exp_avg_sq, int64_t step, const AdamOptions& options) {
  const char* where = "optim::Adam::step";
  options.validate();
  TIDE_CHECK(step >= 1, "[", where, "] expected step >= 1 (the number of this update of the "
             "parameter, 1 on its first), found ", step,
             "; increment the parameter's step count before the update, as torch does");
  check_parameter(param, where);
  check_like_parameter(grad, param, where, "grad");
  check_state(exp_avg, param, where, "exp_avg");
  check_state(exp_avg_sq, param, where, "exp_avg_sq");
  if (options.amsgrad()) check_state(max_exp_avg_sq, param, where, "max_exp_avg_sq");
  if (param.numel() == 0) return;

  const kernels::AdamHyper hyper{options.lr(),  std::get<0>(options.betas()),
                                 std::get<1>(options.betas()), options.eps(),
                                 options.weight_decay(), options.amsgrad(),
                                 options.maximize(), step};
  const Tensor g = contiguous_operand(grad);
  const Tensor v_max = options.amsgrad() ? max_exp_avg_sq : Tensor();
  if (param.is_contiguous()) {
    tide::detail::run_kernel(param.device(), "adam_step", kernels::adam_stub, param, g, exp_avg,
                             exp_avg_sq, v_max, hyper);
    return;
  }
  const Tensor p = param.contiguous();  // Note [Fused optimizer steps] in optim/sgd_step.h
  tide::detail::run_kernel(param.device(), "adam_step", kernels::adam_stub, p, g, exp_avg,
                           exp_avg_sq, v_max, hyper);
  param.copy_(p);
}

}  // namespace tide::optim::detail
