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
  /// Group 0's options (Note [Param groups]); changing them applies from the next step.
  const SGDOptions& options() const { return options_.front(); }
  SGDOptions& options() { return options_.front(); }
  /// Group `group`'s options.
  const SGDOptions& options(size_t group) const;
  SGDOptions& options(size_t group);
  /// torch's add_param_group: `params` join as a new group with `options` of their own.
  void add_param_group(std::vector<Tensor> params, SGDOptions options);
  /// After the parameter's first step, "momentum_buffer": its buffer, or an undefined tensor
  /// (torch's None) while momentum is 0.
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;

 private:
  std::vector<SGDOptions> options_;  // by group
  std::vector<Tensor> momentum_buffers_;  // by parameter; undefined before its first step
  std::vector<bool> stepped_;             // by parameter: has it had a step (torch's state)?
};

}  // namespace tide::optim
