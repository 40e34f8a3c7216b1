#pragma once
// RMSprop (with momentum, centering and L2 weight decay), as torch.optim.RMSprop / libtorch's
// torch::optim::RMSprop.

#include <cstdint>
#include <vector>

#include "tide/optim/optimizer.h"
#include "tide/optim/rmsprop_options.h"

namespace tide::optim {

class RMSprop : public Optimizer {
 public:
  /// RMSprop opt(model.parameters(), RMSpropOptions(1e-2).alpha(0.9)); options checked here.
  RMSprop(std::vector<Tensor> params, RMSpropOptions options = RMSpropOptions());
  void step() override;
  /// Group 0's options (Note [Param groups]); changing them applies from the next step.
  const RMSpropOptions& options() const { return options_.front(); }
  RMSpropOptions& options() { return options_.front(); }
  /// Group `group`'s options.
  const RMSpropOptions& options(size_t group) const;
  RMSpropOptions& options(size_t group);
  /// torch's add_param_group: `params` join as a new group with `options` of their own.
  void add_param_group(std::vector<Tensor> params, RMSpropOptions options);
  /// "step", "square_avg" and, when made (momentum > 0 or centered at a step),
  /// "momentum_buffer" and "grad_avg".
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;
  bool step_is_int() const override { return true; }

 private:
  /// One parameter's state: created (zeros) at its first step; momentum_buffer and grad_avg
  /// at the first step that needs them (momentum or centering may be switched on later).
  struct State {
    int64_t step = 0;
    Tensor square_avg, momentum_buffer, grad_avg;
  };
  std::vector<RMSpropOptions> options_;  // by group
  std::vector<State> state_;  // by parameter
};

}  // namespace tide::optim
