#pragma once
// SGD: stochastic gradient descent with momentum, dampening, weight decay and Nesterov, as
// torch.optim.SGD / libtorch's torch::optim::SGD.

#include <vector>

#include "tide/optim/optimizer.h"
#include "tide/optim/sgd_options.h"

namespace tide::optim {

class SGD : public Optimizer {
 public:
  /// SGD opt(model.parameters(), SGDOptions(0.1).momentum(0.9)); the options are checked here.
  SGD(std::vector<Tensor> params, SGDOptions options);
  void step() override;
  const SGDOptions& options() const { return options_; }
  /// Changing the options (a learning-rate schedule) applies from the next step.
  SGDOptions& options() { return options_; }
  /// After the parameter's first step, "momentum_buffer": its buffer, or an undefined tensor
  /// (torch's None) while momentum is 0.
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters() const override;
  void load_hyperparameters(const IValue& group) override;

 private:
  SGDOptions options_;
  std::vector<Tensor> momentum_buffers_;  // by parameter; undefined before its first step
  std::vector<bool> stepped_;             // by parameter: has it had a step (torch's state)?
};

}  // namespace tide::optim
