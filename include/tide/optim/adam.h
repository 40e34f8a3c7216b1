#pragma once
// Adam (with amsgrad and L2 weight decay), as torch.optim.Adam / libtorch's torch::optim::Adam.

#include <cstdint>
#include <string>
#include <vector>

#include "tide/optim/adam_options.h"
#include "tide/optim/grouped_optimizer.h"
#include "tide/optim/optimizer.h"

namespace tide::optim {

namespace detail {

/// One parameter's Adam or AdamW state: created (zeros) at its first step.
struct AdamParamState {
  int64_t step = 0;
  Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
};

/// What Adam and AdamW share (Note [Grouped optimizers]): their step and their state in
/// torch's layout. They differ in how weight decay applies (kernels::AdamHyper's
/// decoupled_weight_decay) and in their param group's entries. Members in
/// src/optim/adam_family.cpp.
template <class Options>
class AdamFamily : public GroupedOptimizer<Options, AdamParamState> {
 public:
  void step() override;

 protected:
  /// `name` ("optim::Adam") names errors; `decoupled_weight_decay` is AdamW's.
  AdamFamily(std::vector<Tensor> params, Options options, const char* name,
             bool decoupled_weight_decay);
  /// The state in torch's layout (param_state): "step", "exp_avg", "exp_avg_sq" and, once
  /// amsgrad has run, "max_exp_avg_sq".
  ParamState to_torch_layout(const AdamParamState& state) const override;
  AdamParamState from_torch_layout(const ParamState& state, const Tensor& param,
                                   const char* where) const override;

 private:
  std::string step_name_;  // "optim::Adam::step"
  bool decoupled_weight_decay_;
};

}  // namespace detail

/// Group calls (options(g), add_param_group) from GroupedOptimizer (Note [Grouped optimizers]).
class Adam : public detail::AdamFamily<AdamOptions> {
 public:
  /// Adam opt(model.parameters(), AdamOptions(1e-3).betas({0.9, 0.999})); options checked here.
  Adam(std::vector<Tensor> params, AdamOptions options = AdamOptions());

 protected:
  std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const override;
  void load_hyperparameters(size_t group, const IValue& entries) override;
};

extern template class GroupedOptimizer<AdamOptions, detail::AdamParamState>;
extern template class detail::AdamFamily<AdamOptions>;

}  // namespace tide::optim
