#pragma once
// Optimizer: the parameters an optimizer updates, and the two calls a training loop makes.

#include <vector>

#include "tide/tensor.h"

namespace tide::optim {

/// Note [Optimizers hold parameters]: an optimizer keeps handles to its parameters — the same
/// tensors as the module's — so a module moved in place (module.cuda(), through set_data) is
/// still the optimizer's. Per-parameter state (SGD's momentum, Adam's averages) is created at
/// the parameter's first step, on its device, and follows it: state found on another device
/// or in another dtype than its parameter (the module moved after some steps) is moved before
/// the step, as torch's load_state_dict casts state to its parameter. Every step runs one
/// fused launch per parameter on the parameter's device's current stream (Note [Fused
/// optimizer steps]) and marks the parameter modified in place (its version counter), so a
/// graph that saved it before the step refuses to backward through the stale value.
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  /// Clears every parameter's gradient: undefined when set_to_none (torch's default since
  /// 2.0; the next backward then writes it instead of adding), zeros otherwise.
  void zero_grad(bool set_to_none = true);
  /// One update of every parameter that has a gradient; parameters without one are skipped.
  virtual void step() = 0;
  /// The parameters, in the order given.
  const std::vector<Tensor>& parameters() const { return params_; }

 protected:
  /// Raises tide::Error, naming `where`, for an empty list or a parameter that is undefined,
  /// not floating point or not a leaf (torch's checks).
  Optimizer(std::vector<Tensor> params, const char* where);

  std::vector<Tensor> params_;
};

}  // namespace tide::optim
