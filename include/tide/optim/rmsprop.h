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
  const RMSpropOptions& options() const { return options_; }
  RMSpropOptions& options() { return options_; }
  /// "step", "square_avg" and, when made (momentum > 0 or centered at a step),
  /// "momentum_buffer" and "grad_avg".
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters() const override;
  void load_hyperparameters(const IValue& group) override;
  bool step_is_int() const override { return true; }

 private:
  /// One parameter's state: created (zeros) at its first step; momentum_buffer and grad_avg
  /// at the first step that needs them (momentum or centering may be switched on later).
  struct State {
    int64_t step = 0;
    Tensor square_avg, momentum_buffer, grad_avg;
  };
  RMSpropOptions options_;
  std::vector<State> state_;  // by parameter
};

}  // namespace tide::optim
