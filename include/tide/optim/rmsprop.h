#pragma once
// RMSprop (with momentum, centering and L2 weight decay), as torch.optim.RMSprop / libtorch's
// torch::optim::RMSprop.

#include <cstdint>
#include <vector>

#include "tide/optim/grouped_optimizer.h"
#include "tide/optim/optimizer.h"
#include "tide/optim/rmsprop_options.h"

namespace tide::optim {

namespace detail {
/// One parameter's RMSprop state: created (zeros) at its first step; momentum_buffer and
/// grad_avg at the first step that needs them (momentum or centering may be switched on later).
struct RMSpropParamState {
  int64_t step = 0;
  Tensor square_avg, momentum_buffer, grad_avg;
};
}  // namespace detail

/// Group calls (options(g), add_param_group) from GroupedOptimizer (Note [Grouped optimizers]).
class RMSprop : public GroupedOptimizer<RMSpropOptions, detail::RMSpropParamState> {
 public:
  /// RMSprop opt(model.parameters(), RMSpropOptions(1e-2).alpha(0.9)); options checked here.
  RMSprop(std::vector<Tensor> params, RMSpropOptions options = RMSpropOptions());
  void step() override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;
  bool step_is_int() const override { return true; }
  /// The state in torch's layout (param_state): "step", "square_avg" and, when made (momentum > 0
  /// or centered at a step), "momentum_buffer" and "grad_avg".
  ParamState to_torch_layout(const detail::RMSpropParamState& state) const override;
  detail::RMSpropParamState from_torch_layout(const ParamState& state, const Tensor& param,
                                              const char* where) const override;
};

extern template class GroupedOptimizer<RMSpropOptions, detail::RMSpropParamState>;

}  // namespace tide::optim
