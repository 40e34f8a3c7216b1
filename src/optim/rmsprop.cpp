#include "tide/optim/rmsprop.h"

#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "optim/rmsprop_step.h"
#include "optim/state_placement.h"
#include "optim/step_loop.h"
#include "tide/factories.h"

namespace tide::optim {

RMSprop::RMSprop(std::vector<Tensor> params, RMSpropOptions options)
    : Optimizer(std::move(params), "optim::RMSprop"), options_{options} {
  options.validate();
  state_.resize(params_.size());
}

void RMSprop::step() {
  for (const RMSpropOptions& o : options_) o.validate();
  detail::step_all_or_nothing(
      params_, state_, "optim::RMSprop::step",
      [&](size_t i, const Tensor& p, State& s) {
        const RMSpropOptions& o = options_[group_of(i)];
        if (!s.square_avg.defined()) s.square_avg = zeros(p.sizes(), p.options());
        if (o.momentum() > 0 && !s.momentum_buffer.defined()) {
          s.momentum_buffer = zeros(p.sizes(), p.options());
        }
        if (o.centered() && !s.grad_avg.defined()) s.grad_avg = zeros(p.sizes(), p.options());
        for (Tensor* t : {&s.square_avg, &s.momentum_buffer, &s.grad_avg}) {
          detail::follow_parameter(*t, p);
        }
      },
      [&](size_t i, Tensor& p, const Tensor& grad, State& s) {
        detail::rmsprop_step_(p, grad, s.square_avg, s.grad_avg, s.momentum_buffer,
                              options_[group_of(i)]);
        ++s.step;
      });
}

const RMSpropOptions& RMSprop::options(size_t group) const {
  check_group(group, "optim::RMSprop::options");
  return options_[group];
}

RMSpropOptions& RMSprop::options(size_t group) {
  check_group(group, "optim::RMSprop::options");
  return options_[group];
}

void RMSprop::add_param_group(std::vector<Tensor> params, RMSpropOptions options) {
  options.validate();
  add_params(std::move(params), "optim::RMSprop::add_param_group");
  options_.push_back(options);
  state_.resize(params_.size());
}

ParamState RMSprop::param_state(size_t index) const {
  detail::check_param_index(index, params_.size(), "optim::RMSprop::param_state");
  const State& s = state_[index];
  if (s.step == 0) return {};
  ParamState out{{"step", detail::step_tensor(s.step)}, {"square_avg", s.square_avg}};
  if (s.momentum_buffer.defined()) out.emplace_back("momentum_buffer", s.momentum_buffer);
  if (s.grad_avg.defined()) out.emplace_back("grad_avg", s.grad_avg);
  return out;
}

void RMSprop::load_param_state(size_t index, const ParamState& state) {
  const char* where = "optim::RMSprop::load_param_state";
  detail::check_param_index(index, params_.size(), where);
  const detail::LoadedState loaded(state, {"step", "square_avg", "momentum_buffer", "grad_avg"},
                                   where);
  State s;
  if (!loaded.empty()) {
    s.step = loaded.step();
    s.square_avg = loaded.tensor("square_avg", params_[index]);
    s.momentum_buffer = loaded.tensor("momentum_buffer", params_[index], /*optional=*/true);
    s.grad_avg = loaded.tensor("grad_avg", params_[index], /*optional=*/true);
  }
  state_[index] = std::move(s);
}

std::vector<std::pair<std::string, IValue>> RMSprop::hyperparameters(size_t group) const {
  const RMSpropOptions& o = options(group);
  return {{"lr", o.lr()}, {"momentum", o.momentum()}, {"alpha", o.alpha()}, {"eps", o.eps()},
          {"centered", o.centered()}, {"weight_decay", o.weight_decay()}, {"foreach", IValue()},
          {"maximize", o.maximize()}, {"differentiable", false}};
}

void RMSprop::load_hyperparameters(size_t group, const IValue& entries) {
  const detail::GroupReader g(entries, "optim::RMSprop::load_state_dict");
  g.unsupported_switch("differentiable");
  RMSpropOptions o(g.number("lr"));
  o.momentum(g.number("momentum")).alpha(g.number("alpha")).eps(g.number("eps"))
      .centered(g.flag("centered")).weight_decay(g.number("weight_decay"))
      .maximize(g.flag("maximize"));
  o.validate();
  options(group) = o;
}

}  // namespace tide::optim
