#include "tide/optim/adam.h"

#include "optim/adam_family.h"
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

}  // namespace tide::optim
