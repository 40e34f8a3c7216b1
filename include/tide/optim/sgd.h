#pragma once
// SGD: stochastic gradient descent with momentum, dampening, weight decay and Nesterov, as
// torch.optim.SGD / libtorch's torch::optim::SGD.

#include <vector>

#include "tide/optim/grouped_optimizer.h"
#include "tide/optim/optimizer.h"
#include "tide/optim/sgd_options.h"

namespace tide::optim {

namespace detail {
/// One parameter's SGD state.
struct SGDParamState {
  Tensor momentum_buffer;  // undefined before its first step with momentum
  bool stepped = false;    // has it had a step (torch keeps state from then on)?
};
}  // namespace detail

/// Group calls (options(g), add_param_group) from GroupedOptimizer (Note [Grouped optimizers]).
class SGD : public GroupedOptimizer<SGDOptions, detail::SGDParamState> {
 public:
  /// SGD opt(model.parameters(), SGDOptions(0.1).momentum(0.9)); the options are checked here.
  SGD(std::vector<Tensor> params, SGDOptions options);
  void step() override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;
  /// The state in torch's layout (param_state): after the parameter's first step,
  /// "momentum_buffer": its buffer, or an undefined tensor (torch's None) while momentum is 0.
  ParamState to_torch_layout(const detail::SGDParamState& state) const override;
  detail::SGDParamState from_torch_layout(const ParamState& state, const Tensor& param,
                                          const char* where) const override;
};

extern template class GroupedOptimizer<SGDOptions, detail::SGDParamState>;

}  // namespace tide::optim
