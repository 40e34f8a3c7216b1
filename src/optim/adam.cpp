#include "tide/optim/adam.h"

#include "optim/adam_family.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"

namespace tide::optim {

Adam::Adam(std::vector<Tensor> params, AdamOptions options)
    : Optimizer(std::move(params), "optim::Adam"), options_{options} {
  options.validate();
  state_.resize(params_.size());
}

void Adam::step() {
  std::vector<kernels::AdamHyper> hyper;
  for (const AdamOptions& o : options_) {
    o.validate();
    hyper.push_back(detail::adam_hyper(o, false));
  }
  detail::adam_family_step(
      params_, state_, [&](size_t i) { return hyper[group_of(i)]; }, "optim::Adam::step");
}

const AdamOptions& Adam::options(size_t group) const {
  check_group(group, "optim::Adam::options");
  return options_[group];
}

AdamOptions& Adam::options(size_t group) {
  check_group(group, "optim::Adam::options");
  return options_[group];
}

void Adam::add_param_group(std::vector<Tensor> params, AdamOptions options) {
  options.validate();
  add_params(std::move(params), "optim::Adam::add_param_group");
  options_.push_back(options);
  state_.resize(params_.size());
}

ParamState Adam::param_state(size_t index) const {
  detail::check_param_index(index, params_.size(), "optim::Adam::param_state");
  return detail::adam_param_state(state_[index]);
}

void Adam::load_param_state(size_t index, const ParamState& state) {
  const char* where = "optim::Adam::load_param_state";
  detail::check_param_index(index, params_.size(), where);
  state_[index] = detail::adam_loaded_state(state, params_[index], where);
}

std::vector<std::pair<std::string, IValue>> Adam::hyperparameters(size_t group) const {
  const AdamOptions& o = options(group);
  return {{"lr", o.lr()},
          {"betas", IValue::tuple({std::get<0>(o.betas()), std::get<1>(o.betas())})},
          {"eps", o.eps()}, {"weight_decay", o.weight_decay()}, {"amsgrad", o.amsgrad()},
          {"maximize", o.maximize()}, {"foreach", IValue()}, {"capturable", false},
          {"differentiable", false}, {"fused", false}};
}

void Adam::load_hyperparameters(size_t group, const IValue& entries) {
  const detail::GroupReader g(entries, "optim::Adam::load_state_dict");
  g.unsupported_switch("differentiable");
  const auto [b1, b2] = g.pair("betas");
  AdamOptions o(g.number("lr"));
  o.betas({b1, b2}).eps(g.number("eps")).weight_decay(g.number("weight_decay"))
      .amsgrad(g.flag("amsgrad")).maximize(g.flag("maximize"));
  o.validate();
  options(group) = o;
}

}  // namespace tide::optim
