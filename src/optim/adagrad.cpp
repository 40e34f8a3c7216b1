#include "tide/optim/adagrad.h"

#include "optim/adagrad_step.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "optim/state_placement.h"
#include "optim/step_loop.h"
#include "tide/error.h"
#include "tide/factories.h"

namespace tide::optim {

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions options)
    : Optimizer(std::move(params), "optim::Adagrad"), options_{options} {
  options.validate();
  add_sums(options);
}

// torch's Adagrad makes each parameter's sum when the parameter joins: filled with the
// group's initial_accumulator_value.
void Adagrad::add_sums(const AdagradOptions& options) {
  for (size_t i = state_.size(); i < params_.size(); ++i) {
    const Tensor& p = params_[i];
    state_.push_back(State{0, full(p.sizes(), options.initial_accumulator_value(), p.options())});
  }
}

void Adagrad::step() {
  for (const AdagradOptions& o : options_) o.validate();
  detail::step_all_or_nothing(
      params_, state_, "optim::Adagrad::step",
      [&](size_t, const Tensor& p, State& s) { detail::follow_parameter(s.sum, p); },
      [&](size_t i, Tensor& p, const Tensor& grad, State& s) {
        detail::adagrad_step_(p, grad, s.sum, s.step + 1, options_[group_of(i)]);
        ++s.step;
      });
}

const AdagradOptions& Adagrad::options(size_t group) const {
  check_group(group, "optim::Adagrad::options");
  return options_[group];
}

AdagradOptions& Adagrad::options(size_t group) {
  check_group(group, "optim::Adagrad::options");
  return options_[group];
}

void Adagrad::add_param_group(std::vector<Tensor> params, AdagradOptions options) {
  options.validate();
  add_params(std::move(params), "optim::Adagrad::add_param_group");
  options_.push_back(options);
  add_sums(options);
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

std::vector<std::pair<std::string, IValue>> Adagrad::hyperparameters(size_t group) const {
  const AdagradOptions& o = options(group);
  return {{"lr", o.lr()}, {"lr_decay", o.lr_decay()}, {"eps", o.eps()},
          {"weight_decay", o.weight_decay()},
          {"initial_accumulator_value", o.initial_accumulator_value()}, {"foreach", IValue()},
          {"maximize", o.maximize()}};
}

void Adagrad::load_hyperparameters(size_t group, const IValue& entries) {
  const detail::GroupReader g(entries, "optim::Adagrad::load_state_dict");
  AdagradOptions o(g.number("lr"));
  o.lr_decay(g.number("lr_decay")).eps(g.number("eps")).weight_decay(g.number("weight_decay"))
      .initial_accumulator_value(g.number("initial_accumulator_value"))
      .maximize(g.flag("maximize"));
  o.validate();
  options(group) = o;
}

}  // namespace tide::optim
