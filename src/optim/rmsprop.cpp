#include "tide/optim/rmsprop.h"

#include "optim/grouped_optimizer_impl.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "optim/rmsprop_step.h"
#include "optim/state_placement.h"
#include "optim/step_loop.h"
#include "tide/factories.h"

namespace tide::optim {

template class GroupedOptimizer<RMSpropOptions, detail::RMSpropParamState>;

using detail::RMSpropParamState;

RMSprop::RMSprop(std::vector<Tensor> params, RMSpropOptions options)
    : GroupedOptimizer(std::move(params), options, "optim::RMSprop") {}

void RMSprop::step() {
  validate_options();
  detail::step_all_or_nothing(
      params_, state_, "optim::RMSprop::step",
      [&](size_t i, const Tensor& p, RMSpropParamState& s) {
        const RMSpropOptions& o = options_of(i);
        if (!s.square_avg.defined()) s.square_avg = zeros(p.sizes(), p.options());
        if (o.momentum() > 0 && !s.momentum_buffer.defined()) {
          s.momentum_buffer = zeros(p.sizes(), p.options());
        }
        if (o.centered() && !s.grad_avg.defined()) s.grad_avg = zeros(p.sizes(), p.options());
        for (Tensor* t : {&s.square_avg, &s.momentum_buffer, &s.grad_avg}) {
          detail::follow_parameter(*t, p);
        }
      },
      [&](size_t i, Tensor& p, const Tensor& grad, RMSpropParamState& s) {
        detail::rmsprop_step_(p, grad, s.square_avg, s.grad_avg, s.momentum_buffer,
                              options_of(i));
        ++s.step;
      });
}

ParamState RMSprop::to_torch_layout(const RMSpropParamState& s) const {
  if (s.step == 0) return {};
  ParamState out{{"step", detail::step_tensor(s.step)}, {"square_avg", s.square_avg}};
  if (s.momentum_buffer.defined()) out.emplace_back("momentum_buffer", s.momentum_buffer);
  if (s.grad_avg.defined()) out.emplace_back("grad_avg", s.grad_avg);
  return out;
}

RMSpropParamState RMSprop::from_torch_layout(const ParamState& state, const Tensor& param,
                                             const char* where) const {
  const detail::LoadedState loaded(state, {"step", "square_avg", "momentum_buffer", "grad_avg"},
                                   where);
  RMSpropParamState s;
  if (!loaded.empty()) {
    s.step = loaded.step();
    s.square_avg = loaded.tensor("square_avg", param);
    s.momentum_buffer = loaded.tensor("momentum_buffer", param, /*optional=*/true);
    s.grad_avg = loaded.tensor("grad_avg", param, /*optional=*/true);
  }
  return s;
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
