#include "tide/optim/sgd.h"

#include "optim/grouped_optimizer_impl.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "optim/sgd_step.h"
#include "optim/state_placement.h"
#include "optim/step_checks.h"
#include "tide/autograd.h"
#include "tide/factories.h"

namespace tide::optim {

template class GroupedOptimizer<SGDOptions, detail::SGDParamState>;

using detail::SGDParamState;

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : GroupedOptimizer(std::move(params), options, "optim::SGD") {}

void SGD::step() {
  NoGradGuard no_grad;
  const char* where = "optim::SGD::step";
  validate_options();
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
    if (options_of(i).momentum() != 0) {
      const Tensor& buffer = state_[i].momentum_buffer;
      u.first = !buffer.defined();
      u.buffer = u.first ? empty(p.sizes(), p.options()) : buffer;  // contiguous, as state must be
      detail::follow_parameter(u.buffer, p);
    }
    updates.push_back(std::move(u));
  }
  // Then the updates, which allocate nothing, and the new state is kept.
  for (Update& u : updates) {
    Tensor& p = params_[u.index];
    detail::sgd_step_(p, u.grad, u.buffer, options_of(u.index), u.first);
    p.storage().bump_version();
  }
  for (Update& u : updates) {
    SGDParamState& s = state_[u.index];
    s.stepped = true;
    if (u.buffer.defined()) s.momentum_buffer = std::move(u.buffer);
  }
}

ParamState SGD::to_torch_layout(const SGDParamState& s) const {
  if (!s.stepped) return {};
  return {{"momentum_buffer", s.momentum_buffer}};
}

SGDParamState SGD::from_torch_layout(const ParamState& state, const Tensor& param,
                                     const char* where) const {
  const detail::LoadedState loaded(state, {"momentum_buffer"}, where);
  return {loaded.tensor("momentum_buffer", param, /*optional=*/true), !loaded.empty()};
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
