#pragma once
// Adam (with amsgrad and L2 weight decay), as torch.optim.Adam / libtorch's torch::optim::Adam.

#include <cstdint>
#include <vector>

#include "tide/optim/adam_options.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {

namespace detail {
/// One parameter's Adam or AdamW state: created (zeros) at its first step.
struct AdamParamState {
  int64_t step = 0;
  Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
};
}  // namespace detail

class Adam : public Optimizer {
 public:
  /// Adam opt(model.parameters(), AdamOptions(1e-3).betas({0.9, 0.999})); options checked here.
  Adam(std::vector<Tensor> params, AdamOptions options = AdamOptions());
  void step() override;
  /// Group 0's options (Note [Param groups]); changing them applies from the next step.
  const AdamOptions& options() const { return options_.front(); }
  AdamOptions& options() { return options_.front(); }
  /// Group `group`'s options.
  const AdamOptions& options(size_t group) const;
  AdamOptions& options(size_t group);
  /// torch's add_param_group: `params` join as a new group with `options` of their own.
  void add_param_group(std::vector<Tensor> params, AdamOptions options);
  /// "step", "exp_avg", "exp_avg_sq" and, once amsgrad has run, "max_exp_avg_sq".
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;

 private:
  std::vector<AdamOptions> options_;  // by group
  std::vector<detail::AdamParamState> state_;  // by parameter
};

}  // namespace tide::optim
