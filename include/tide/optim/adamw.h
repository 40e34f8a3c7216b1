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
  const AdamWOptions& options() const { return options_; }
  AdamWOptions& options() { return options_; }
  /// Adam's layout: "step", "exp_avg", "exp_avg_sq" and, once amsgrad has run, "max_exp_avg_sq".
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters() const override;
  void load_hyperparameters(const IValue& group) override;

 private:
  AdamWOptions options_;
  std::vector<detail::AdamParamState> state_;  // by parameter
};

}  // namespace tide::optim
