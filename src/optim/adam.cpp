#include "tide/optim/adam.h"

#include "optim/adam_step.h"
#include "optim/state_placement.h"
#include "optim/step_checks.h"
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
  const char* where = "optim::Adam::step";
  // Note [Optimizer steps are all or nothing] (optimizer.h): first every check and allocation.
  struct Update {
    size_t index;
    Tensor grad;  // contiguous
    State state;  // the state the update reads and writes, on the parameter's device
  };
  std::vector<Update> updates;
  updates.reserve(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    const Tensor& p = params_[i];
    const Tensor grad = p.grad();
    if (!grad.defined()) continue;
    detail::check_parameter(p, where);
    detail::check_like_parameter(grad, p, where, "grad");
    Update u{i, detail::contiguous_operand(grad), state_[i]};
    State& s = u.state;
    if (s.step == 0) {
      s.exp_avg = zeros(p.sizes(), p.options());  // contiguous, as state must be
      s.exp_avg_sq = zeros(p.sizes(), p.options());
    }
    // amsgrad may be switched on between steps: its running maximum starts from zeros.
    if (options_.amsgrad() && !s.max_exp_avg_sq.defined()) s.max_exp_avg_sq = zeros(p.sizes(), p.options());
    for (Tensor* t : {&s.exp_avg, &s.exp_avg_sq, &s.max_exp_avg_sq}) {
      detail::follow_parameter(*t, p);
    }
    updates.push_back(std::move(u));
  }
  // Then the updates, which allocate nothing, and the new state is kept.
  for (Update& u : updates) {
    Tensor& p = params_[u.index];
    State& s = u.state;
    detail::adam_step_(p, u.grad, s.exp_avg, s.exp_avg_sq, s.max_exp_avg_sq, s.step + 1, options_);
    ++s.step;
    p.storage().bump_version();
  }
  for (Update& u : updates) state_[u.index] = std::move(u.state);
}

}  // namespace tide::optim
