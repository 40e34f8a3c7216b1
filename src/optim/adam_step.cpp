#include "optim/adam_step.h"

#include "optim/adam_family.h"

namespace tide::optim::detail {

void adam_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                Tensor& max_exp_avg_sq, int64_t step, const AdamOptions& options) {
  options.validate();
  kernels::AdamHyper hyper = adam_hyper(options, false);
  hyper.step = step;
  adam_hyper_step_(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, hyper, "optim::Adam::step");
}

void adamw_step_(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq,
                 Tensor& max_exp_avg_sq, int64_t step, const AdamWOptions& options) {
  options.validate();
  kernels::AdamHyper hyper = adam_hyper(options, true);
  hyper.step = step;
  adam_hyper_step_(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, hyper, "optim::AdamW::step");
}

}  // namespace tide::optim::detail
