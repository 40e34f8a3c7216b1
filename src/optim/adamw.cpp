#include "tide/optim/adamw.h"

#include "optim/adam_family.h"
#include "optim/grouped_optimizer_impl.h"
#include "optim/hyperparameters.h"

namespace tide::optim {

template class GroupedOptimizer<AdamWOptions, detail::AdamParamState>;

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions options)
    : AdamFamily(std::move(params), options, "optim::AdamW", /*decoupled_weight_decay=*/true) {}

std::vector<std::pair<std::string, IValue>> AdamW::hyperparameters(size_t group) const {
  const AdamWOptions& o = options(group);
  return {{"lr", o.lr()},
          {"betas", IValue::tuple({std::get<0>(o.betas()), std::get<1>(o.betas())})},
          {"eps", o.eps()}, {"weight_decay", o.weight_decay()}, {"amsgrad", o.amsgrad()},
          {"foreach", IValue()}, {"maximize", o.maximize()}, {"capturable", false}};
}

void AdamW::load_hyperparameters(size_t group, const IValue& entries) {
  const detail::GroupReader g(entries, "optim::AdamW::load_state_dict");
  options(group) = detail::adam_options_from<AdamWOptions>(g);
}

}  // namespace tide::optim
