#include "tide/optim/adagrad.h"

#include "optim/adagrad_step.h"
#include "optim/param_state.h"
#include "optim/state_placement.h"
#include "optim/step_checks.h"
#include "tide/autograd.h"
#include "tide/error.h"
#include "tide/factories.h"

namespace tide::optim {

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions options)
    : Optimizer(std::move(params), "optim::Adagrad"), options_(options) {
  options_.validate();
  state_.reserve(params_.size());
  for (const Tensor& p : params_) {
    state_.push_back(State{0, full(p.sizes(), options_.initial_accumulator_value(), p.options())});
  }
}

void Adagrad::step() {
  NoGradGuard no_grad;
  const char* where = "optim::Adagrad::step";
  options_.validate();
  // Note [Optimizer steps are all or nothing] (optimizer.h): first every check and allocation.
  struct Update {
    size_t index;
    Tensor grad;  // contiguous
    State state;  // on the parameter's device
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
    detail::follow_parameter(u.state.sum, p);
    updates.push_back(std::move(u));
  }
  // Then the updates, which allocate nothing, and the new state is kept.
  for (Update& u : updates) {
    Tensor& p = params_[u.index];
    State& s = u.state;
    detail::adagrad_step_(p, u.grad, s.sum, s.step + 1, options_);
    ++s.step;
    p.storage().bump_version();
  }
  for (Update& u : updates) state_[u.index] = std::move(u.state);
}

ParamState Adagrad::param_state(size_t index) const {
  detail::check_param_index(index, params_.size(), "optim::Adagrad::param_state");
  const State& s = state_[index];
  return {{"step", detail::step_tensor(s.step)}, {"sum", s.sum}};
}

void Adagrad::load_param_state(size_t index, const ParamState& state) {
  const char* where = "optim::Adagrad::load_param_state";
  detail::check_param_index(index, params_.size(), where);
  const detail::LoadedState loaded(state, {"step", "sum"}, where);
  TIDE_CHECK(!loaded.empty(), "[", where, "] expected 'step' and 'sum' entries, found an empty "
             "state; Adagrad's state exists from construction on (torch's layout)");
  State s{loaded.step(), loaded.tensor("sum", params_[index])};
  TIDE_CHECK(s.sum.defined(), "[", where, "] expected a tensor for 'sum', found None");
  state_[index] = std::move(s);
}

}  // namespace tide::optim
