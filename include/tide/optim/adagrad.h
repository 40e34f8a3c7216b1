#pragma once
// Adagrad (dense gradients, with learning-rate decay and L2 weight decay), as
// torch.optim.Adagrad / libtorch's torch::optim::Adagrad.

#include <cstdint>
#include <vector>

#include "tide/optim/adagrad_options.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {

class Adagrad : public Optimizer {
 public:
  /// Adagrad opt(model.parameters(), AdagradOptions(1e-2)); options checked here, and every
  /// parameter's running sum made here, filled with initial_accumulator_value, as torch does.
  Adagrad(std::vector<Tensor> params, AdagradOptions options = AdagradOptions());
  void step() override;
  /// Group 0's options (Note [Param groups]); changing them applies from the next step.
  const AdagradOptions& options() const { return options_.front(); }
  AdagradOptions& options() { return options_.front(); }
  /// Group `group`'s options.
  const AdagradOptions& options(size_t group) const;
  AdagradOptions& options(size_t group);
  /// torch's add_param_group: `params` join as a new group with `options` of their own.
  void add_param_group(std::vector<Tensor> params, AdagradOptions options);
  /// "step" and "sum", from construction on (torch's layout).
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;

 private:
  struct State {
    int64_t step = 0;
    Tensor sum;
  };
  /// Makes the state of the parameters added since the last call.
  void add_sums(const AdagradOptions& options);

  std::vector<AdagradOptions> options_;  // by group
  std::vector<State> state_;  // by parameter
};

}  // namespace tide::optim
