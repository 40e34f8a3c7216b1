#include "tide/optim/adamw.h"

#include "optim/adam_family.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"

namespace tide::optim {

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions options)
    : Optimizer(std::move(params), "optim::AdamW"), options_{options} {
  options.validate();
  state_.resize(params_.size());
}

void AdamW::step() {
  std::vector<kernels::AdamHyper> hyper;
  for (const AdamWOptions& o : options_) {
    o.validate();
    hyper.push_back(detail::adam_hyper(o, true));
  }
  detail::adam_family_step(
      params_, state_, [&](size_t i) { return hyper[group_of(i)]; }, "optim::AdamW::step");
}

const AdamWOptions& AdamW::options(size_t group) const {
  check_group(group, "optim::AdamW::options");
  return options_[group];
}

AdamWOptions& AdamW::options(size_t group) {
  check_group(group, "optim::AdamW::options");
  return options_[group];
}

void AdamW::add_param_group(std::vector<Tensor> params, AdamWOptions options) {
  options.validate();
  add_params(std::move(params), "optim::AdamW::add_param_group");
  options_.push_back(options);
  state_.resize(params_.size());
}

ParamState AdamW::param_state(size_t index) const {
  detail::check_param_index(index, params_.size(), "optim::AdamW::param_state");
  return detail::adam_param_state(state_[index]);
}

void AdamW::load_param_state(size_t index, const ParamState& state) {
  const char* where = "optim::AdamW::load_param_state";
  detail::check_param_index(index, params_.size(), where);
  state_[index] = detail::adam_loaded_state(state, params_[index], where);
}

std::vector<std::pair<std::string, IValue>> AdamW::hyperparameters(size_t group) const {
  const AdamWOptions& o = options(group);
  return {{"lr", o.lr()},
          {"betas", IValue::tuple({std::get<0>(o.betas()), std::get<1>(o.betas())})},
          {"eps", o.eps()}, {"weight_decay", o.weight_decay()}, {"amsgrad", o.amsgrad()},
          {"foreach", IValue()}, {"maximize", o.maximize()}, {"capturable", false}};
}

void AdamW::load_hyperparameters(size_t group, const IValue& entries) {
  const detail::GroupReader g(entries, "optim::AdamW::load_state_dict");
  const auto [b1, b2] = g.pair("betas");
  AdamWOptions o(g.number("lr"));
  o.betas({b1, b2}).eps(g.number("eps")).weight_decay(g.number("weight_decay"))
      .amsgrad(g.flag("amsgrad")).maximize(g.flag("maximize"));
  o.validate();
  options(group) = o;
}

}  // namespace tide::optim
