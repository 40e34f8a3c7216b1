#include "tide/optim/adagrad.h"

#include "optim/adagrad_step.h"
#include "optim/grouped_optimizer_impl.h"
#include "optim/hyperparameters.h"
#include "optim/param_state.h"
#include "optim/state_placement.h"
#include "optim/step_loop.h"
#include "tide/error.h"
#include "tide/factories.h"

namespace tide::optim {

template class GroupedOptimizer<AdagradOptions, detail::AdagradParamState>;

using detail::AdagradParamState;

namespace {

// torch's Adagrad makes each parameter's sum when the parameter joins: filled with the
// group's initial_accumulator_value.
AdagradParamState new_state(const Tensor& param, const AdagradOptions& options) {
  return {0, full(param.sizes(), options.initial_accumulator_value(), param.options())};
}

}  // namespace

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions options)
    : GroupedOptimizer(std::move(params), options, "optim::Adagrad", &new_state) {}

void Adagrad::step() {
  validate_options();
  detail::step_all_or_nothing(
      params_, state_, "optim::Adagrad::step",
      [&](size_t, const Tensor& p, AdagradParamState& s) { detail::follow_parameter(s.sum, p); },
      [&](size_t i, Tensor& p, const Tensor& grad, AdagradParamState& s) {
        detail::adagrad_step_(p, grad, s.sum, s.step + 1, options_of(i));
        ++s.step;
      });
}

ParamState Adagrad::to_torch_layout(const AdagradParamState& s) const {
  return {{"step", detail::step_tensor(s.step)}, {"sum", s.sum}};
}

AdagradParamState Adagrad::from_torch_layout(const ParamState& state, const Tensor& param,
                                             const char* where) const {
  const detail::LoadedState loaded(state, {"step", "sum"}, where);
  TIDE_CHECK(!loaded.empty(), "[", where, "] expected 'step' and 'sum' entries, found an empty "
             "state; Adagrad's state exists from construction on (torch's layout)");
  AdagradParamState s{loaded.step(), loaded.tensor("sum", param)};
  TIDE_CHECK(s.sum.defined(), "[", where, "] expected a tensor for 'sum', found None");
  return s;
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
