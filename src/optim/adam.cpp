#include "tide/optim/adam.h"

#include "optim/adam_step.h"
#include "optim/state_placement.h"
#include "tide/autograd.h"
#include "tide/factories.h"

namespace tide::optim {

Adam::Adam(std::vector<Tensor> params, AdamOptions options)
    : Optimizer(std::move(params), "optim::Adam"), options_(options) {
  options_.validate();
  state_.resize(params_.size());
}

void Adam::step() {
  NoGradGuard no_grad;
  for (size_t i = 0; i < params_.size(); ++i) {
    Tensor& p = params_[i];
    const Tensor grad = p.grad();
    if (!grad.defined()) continue;
    State& s = state_[i];
    if (s.step == 0) {
      s.exp_avg = zeros(p.sizes(), p.options());  // contiguous, as state must be
      s.exp_avg_sq = zeros(p.sizes(), p.options());
    }
    // amsgrad may be switched on between steps: its running maximum starts from zeros.
    if (options_.amsgrad() && !s.max_exp_avg_sq.defined()) s.max_exp_avg_sq = zeros(p.sizes(), p.options());
    for (Tensor* t : {&s.exp_avg, &s.exp_avg_sq, &s.max_exp_avg_sq}) {
      detail::follow_parameter(*t, p);
    }
    detail::adam_step_(p, grad, s.exp_avg, s.exp_avg_sq, s.max_exp_avg_sq, s.step + 1, options_);
    ++s.step;  // counted once the step was accepted
    p.storage().bump_version();
  }
}

}  // namespace tide::optim
