#pragma once
// Adagrad (dense gradients, with learning-rate decay and L2 weight decay), as
// torch.optim.Adagrad / libtorch's torch::optim::Adagrad.

#include <cstdint>
#include <vector>

#include "tide/optim/adagrad_options.h"
#include "tide/optim/grouped_optimizer.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {

namespace detail {
/// One parameter's Adagrad state: made as the parameter joins (torch's layout).
struct AdagradParamState {
  int64_t step = 0;
  Tensor sum;
};
}  // namespace detail

/// Group calls (options(g), add_param_group) from GroupedOptimizer (Note [Grouped optimizers]).
class Adagrad : public GroupedOptimizer<AdagradOptions, detail::AdagradParamState> {
 public:
  /// Adagrad opt(model.parameters(), AdagradOptions(1e-2)); options checked here, and every
  /// parameter's running sum made here, filled with initial_accumulator_value, as torch does
  /// (add_param_group's parameters: with their group's).
  Adagrad(std::vector<Tensor> params, AdagradOptions options = AdagradOptions());
  void step() override;

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;
  /// The state in torch's layout (param_state): "step" and "sum", from construction on.
  ParamState to_torch_layout(const detail::AdagradParamState& state) const override;
  detail::AdagradParamState from_torch_layout(const ParamState& state, const Tensor& param,
                                              const char* where) const override;
};

extern template class GroupedOptimizer<AdagradOptions, detail::AdagradParamState>;

}  // namespace tide::optim
