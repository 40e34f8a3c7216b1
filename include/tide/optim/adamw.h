#pragma once
// AdamW: Adam with decoupled weight decay, as torch.optim.AdamW / libtorch's
// torch::optim::AdamW (the same fused kernel as Adam, the parameter shrunk first).

#include <vector>

#include "tide/optim/adam.h"
#include "tide/optim/adamw_options.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {

class AdamW : public Optimizer {
 public:
  /// AdamW opt(model.parameters(), AdamWOptions(1e-3).weight_decay(0.01)); options checked here.
  AdamW(std::vector<Tensor> params, AdamWOptions options = AdamWOptions());
  void step() override;
  /// Group 0's options (Note [Param groups]); changing them applies from the next step.
  const AdamWOptions& options() const { return options_.front(); }
  AdamWOptions& options() { return options_.front(); }
  /// Group `group`'s options.
  const AdamWOptions& options(size_t group) const;
  AdamWOptions& options(size_t group);
  /// torch's add_param_group: `params` join as a new group with `options` of their own.
  void add_param_group(std::vector<Tensor> params, AdamWOptions options);
  /// Adam's layout: "step", "exp_avg", "exp_avg_sq" and, once amsgrad has run, "max_exp_avg_sq".
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;

 private:
  std::vector<AdamWOptions> options_;  // by group
  std::vector<detail::AdamParamState> state_;  // by parameter
};

}  // namespace tide::optim
