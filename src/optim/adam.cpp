#include "tide/optim/adam.h"

#include "optim/adam_family.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"

namespace tide::optim {

Adam::Adam(std::vector<Tensor> params, AdamOptions options)
    : Optimizer(std::move(params), "optim::Adam"), options_(options) {
  options_.validate();
  state_.resize(params_.size());
}

void Adam::step() {
  options_.validate();
  detail::adam_family_step(params_, state_, detail::adam_hyper(options_, false), "optim::Adam::step");
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

std::vector<std::pair<std::string, IValue>> Adam::hyperparameters() const {
  const AdamOptions& o = options_;
  return {{"lr", o.lr()},
          {"betas", IValue::tuple({std::get<0>(o.betas()), std::get<1>(o.betas())})},
          {"eps", o.eps()}, {"weight_decay", o.weight_decay()}, {"amsgrad", o.amsgrad()},
          {"maximize", o.maximize()}, {"foreach", IValue()}, {"capturable", false},
          {"differentiable", false}, {"fused", false}};
}

void Adam::load_hyperparameters(const IValue& group) {
  const detail::GroupReader g(group, "optim::Adam::load_state_dict");
  g.unsupported_switch("differentiable");
  const auto [b1, b2] = g.pair("betas");
  AdamOptions o(g.number("lr"));
  o.betas({b1, b2}).eps(g.number("eps")).weight_decay(g.number("weight_decay"))
      .amsgrad(g.flag("amsgrad")).maximize(g.flag("maximize"));
  o.validate();
  options_ = o;
}

}  // namespace tide::optim
