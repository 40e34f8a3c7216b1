#include "tide/optim/adam.h"

#include "optim/adam_family.h"
#include "optim/grouped_optimizer_impl.h"
#include "optim/hyperparameters.h"

namespace tide::optim {

template class GroupedOptimizer<AdamOptions, detail::AdamParamState>;

Adam::Adam(std::vector<Tensor> params, AdamOptions options)
    : AdamFamily(std::move(params), options, "optim::Adam", /*decoupled_weight_decay=*/false) {}

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
  options(group) = detail::adam_options_from<AdamOptions>(g);
}

}  // namespace tide::optim
