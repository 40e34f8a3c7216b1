#include "tide/optim/sgd.h"

#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "optim/sgd_step.h"
#include "optim/state_placement.h"
#include "optim/step_checks.h"
#include "tide/autograd.h"
#include "tide/factories.h"

namespace tide::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : Optimizer(std::move(params), "optim::SGD"), options_{options} {
  options.validate();
  momentum_buffers_.resize(params_.size());
  stepped_.resize(params_.size());
}

void SGD::step() {
  NoGradGuard no_grad;
  const char* where = "optim::SGD::step";
  for (const SGDOptions& o : options_) o.validate();
  // Note [Optimizer steps are all or nothing] (optimizer.h): first every check and allocation.
  struct Update {
    size_t index;
    Tensor grad;    // contiguous
    Tensor buffer;  // on the parameter's device; undefined without momentum
    bool first;     // a fresh buffer: the kernel sets it to the gradient (torch clones it)
  };
  std::vector<Update> updates;
  updates.reserve(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    const Tensor& p = params_[i];
    const Tensor grad = p.grad();
    if (!grad.defined()) continue;
    detail::check_parameter(p, where);
    detail::check_like_parameter(grad, p, where, "grad");
    Update u{i, detail::contiguous_operand(grad), Tensor(), false};
    if (options_[group_of(i)].momentum() != 0) {
      u.first = !momentum_buffers_[i].defined();
      u.buffer = u.first ? empty(p.sizes(), p.options()) : momentum_buffers_[i];  // contiguous, as state must be
      detail::follow_parameter(u.buffer, p);
    }
    updates.push_back(std::move(u));
  }
  // Then the updates, which allocate nothing, and the new state is kept.
  for (Update& u : updates) {
    Tensor& p = params_[u.index];
    detail::sgd_step_(p, u.grad, u.buffer, options_[group_of(u.index)], u.first);
    p.storage().bump_version();
  }
  for (Update& u : updates) {
    stepped_[u.index] = true;
    if (u.buffer.defined()) momentum_buffers_[u.index] = std::move(u.buffer);
  }
}

const SGDOptions& SGD::options(size_t group) const {
  check_group(group, "optim::SGD::options");
  return options_[group];
}

SGDOptions& SGD::options(size_t group) {
  check_group(group, "optim::SGD::options");
  return options_[group];
}

void SGD::add_param_group(std::vector<Tensor> params, SGDOptions options) {
  options.validate();
  add_params(std::move(params), "optim::SGD::add_param_group");
  options_.push_back(options);
  momentum_buffers_.resize(params_.size());
  stepped_.resize(params_.size());
}

ParamState SGD::param_state(size_t index) const {
  detail::check_param_index(index, params_.size(), "optim::SGD::param_state");
  if (!stepped_[index]) return {};
  return {{"momentum_buffer", momentum_buffers_[index]}};
}

void SGD::load_param_state(size_t index, const ParamState& state) {
  const char* where = "optim::SGD::load_param_state";
  detail::check_param_index(index, params_.size(), where);
  const detail::LoadedState loaded(state, {"momentum_buffer"}, where);
  Tensor buffer = loaded.tensor("momentum_buffer", params_[index], /*optional=*/true);
  momentum_buffers_[index] = std::move(buffer);
  stepped_[index] = !loaded.empty();
}

std::vector<std::pair<std::string, IValue>> SGD::hyperparameters(size_t group) const {
  const SGDOptions& o = options(group);
  return {{"lr", o.lr()}, {"momentum", o.momentum()}, {"dampening", o.dampening()},
          {"weight_decay", o.weight_decay()}, {"nesterov", o.nesterov()},
          {"maximize", o.maximize()}, {"foreach", IValue()}, {"differentiable", false}};
}

void SGD::load_hyperparameters(size_t group, const IValue& entries) {
  const detail::GroupReader g(entries, "optim::SGD::load_state_dict");
  g.unsupported_switch("differentiable");
  SGDOptions o(g.number("lr"));
  o.momentum(g.number("momentum")).dampening(g.number("dampening"))
      .weight_decay(g.number("weight_decay")).nesterov(g.flag("nesterov"))
      .maximize(g.flag("maximize"));
  o.validate();
  options(group) = o;
}

}  // namespace tide::optim
