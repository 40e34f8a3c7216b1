#pragma once
// GroupedOptimizer's members (Note [Grouped optimizers] in tide/optim/grouped_optimizer.h):
// included by each optimizer's source file, which instantiates them for its options and state.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "optim/param_state.h"
#include "tide/optim/grouped_optimizer.h"

namespace tide::optim {

namespace detail {
/// "optim::Adam" and "options" give "optim::Adam::options": made only to name a failing call.
inline std::string member_name(const char* name, const char* member) {
  return std::string(name) + "::" + member;
}
}  // namespace detail

template <class Options, class State>
GroupedOptimizer<Options, State>::GroupedOptimizer(std::vector<Tensor> params, Options options,
                                                   const char* name, MakeState make_state)
    : Optimizer(std::move(params), name), options_{options}, name_(name),
      make_state_(make_state) {
  options.validate();
  add_states(options);
}

template <class Options, class State>
const Options& GroupedOptimizer<Options, State>::options(size_t group) const {
  if (group >= options_.size()) check_group(group, detail::member_name(name_, "options").c_str());
  return options_[group];
}

template <class Options, class State>
Options& GroupedOptimizer<Options, State>::options(size_t group) {
  if (group >= options_.size()) check_group(group, detail::member_name(name_, "options").c_str());
  return options_[group];
}

template <class Options, class State>
void GroupedOptimizer<Options, State>::add_param_group(std::vector<Tensor> params,
                                                       Options options) {
  options.validate();
  add_params(std::move(params), detail::member_name(name_, "add_param_group").c_str());
  // Making the new states may allocate (Adagrad's sums) and so fail with OutOfMemoryError:
  // then the group is taken back whole, as the declaration promises ("changing nothing").
  const size_t groups = options_.size();
  const size_t states = state_.size();
  try {
    options_.push_back(options);
    add_states(options);
  } catch (...) {
    options_.erase(options_.begin() + static_cast<std::ptrdiff_t>(groups), options_.end());
    state_.erase(state_.begin() + static_cast<std::ptrdiff_t>(states), state_.end());
    remove_last_group();
    throw;
  }
}

template <class Options, class State>
void GroupedOptimizer<Options, State>::add_states(const Options& options) {
  state_.reserve(params_.size());
  for (size_t i = state_.size(); i < params_.size(); ++i) {
    state_.push_back(make_state_ != nullptr ? make_state_(params_[i], options) : State{});
  }
}

template <class Options, class State>
void GroupedOptimizer<Options, State>::validate_options() const {
  for (const Options& o : options_) o.validate();
}

template <class Options, class State>
ParamState GroupedOptimizer<Options, State>::param_state(size_t index) const {
  if (index >= params_.size()) {
    detail::check_param_index(index, params_.size(),
                              detail::member_name(name_, "param_state").c_str());
  }
  return to_torch_layout(state_[index]);
}

template <class Options, class State>
void GroupedOptimizer<Options, State>::load_param_state(size_t index, const ParamState& state) {
  const std::string where = detail::member_name(name_, "load_param_state");
  detail::check_param_index(index, params_.size(), where.c_str());
  state_[index] = from_torch_layout(state, params_[index], where.c_str());
}

}  // namespace tide::optim
