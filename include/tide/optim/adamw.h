#pragma once
// AdamW: Adam with decoupled weight decay, as torch.optim.AdamW / libtorch's
// torch::optim::AdamW (the same fused kernel as Adam, the parameter shrunk first).

#include <vector>

#include "tide/optim/adam.h"
#include "tide/optim/adamw_options.h"
#include "tide/optim/grouped_optimizer.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {

/// Adam's step and state layout (detail::AdamFamily); group calls (options(g),
/// add_param_group) from GroupedOptimizer (Note [Grouped optimizers]).
class AdamW : public detail::AdamFamily<AdamWOptions> {
 public:
  /// AdamW opt(model.parameters(), AdamWOptions(1e-3).weight_decay(0.01)); options checked here.
  AdamW(std::vector<Tensor> params, AdamWOptions options = AdamWOptions());

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;
};

extern template class GroupedOptimizer<AdamWOptions, detail::AdamParamState>;
extern template class detail::AdamFamily<AdamWOptions>;

}  // namespace tide::optim
