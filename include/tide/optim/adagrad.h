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
  const AdagradOptions& options() const { return options_; }
  AdagradOptions& options() { return options_; }
  /// "step" and "sum", from construction on (torch's layout).
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters() const override;
  void load_hyperparameters(const IValue& group) override;

 private:
  struct State {
    int64_t step = 0;
    Tensor sum;
  };
  AdagradOptions options_;
  std::vector<State> state_;  // by parameter
};

}  // namespace tide::optim
