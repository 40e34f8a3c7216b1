#pragma once
// Optimizer: the parameters an optimizer updates, and the two calls a training loop makes.

#include <string>
#include <utility>
#include <vector>

#include "tide/ivalue.h"
#include "tide/tensor.h"

namespace tide::optim {

/// Note [Optimizer state in torch's layout]: one parameter's state as torch's
/// Optimizer.state_dict() holds it — named tensors, with torch's names, in torch's order
/// ("step", "exp_avg", "exp_avg_sq", ...) — so Python's state_dict() is built from it without
/// knowing each optimizer, and a state_dict written by torch loads here. "step" is a 0-dim
/// float32 cpu tensor holding the parameter's step count, as torch 1.13's Adam, AdamW and
/// Adagrad keep it (RMSprop's Python class hands torch's int). An undefined tensor is torch's
/// None (SGD's momentum_buffer after a step without momentum). The tensors are the
/// optimizer's own, not copies, as torch's state_dict() returns its state. Who owns the state
/// stays the C++ optimizer's: Python reads and replaces it through these two calls.
using ParamState = std::vector<std::pair<std::string, Tensor>>;

/// Note [Optimizers hold parameters]: an optimizer keeps handles to its parameters — the same
/// tensors as the module's — so a module moved in place (module.cuda(), through set_data) is
/// still the optimizer's. Per-parameter state (SGD's momentum, Adam's averages) is created at
/// the parameter's first step, on its device, and follows it: state found on another device
/// or in another dtype than its parameter (the module moved after some steps) is moved before
/// the step, as torch's load_state_dict casts state to its parameter. Every step runs one
/// fused launch per parameter on the parameter's device's current stream (Note [Fused
/// optimizer steps]) and marks the parameter modified in place (its version counter), so a
/// graph that saved it before the step refuses to backward through the stale value.
///
/// Note [Optimizer steps are all or nothing]: step() first checks every parameter and makes
/// every tensor the updates need (new state, state moved to its parameter's device, contiguous
/// gradients), then launches the updates, which allocate nothing, then keeps the new state. So
/// an OutOfMemoryError or a misuse error leaves every parameter and all state as before the
/// call, and a training loop that catches the error can free memory and run the step again
/// (tests/memory_device/oom_sweep_test.cpp); torch's per-parameter loop leaves the parameters
/// before the failing one updated. One exception: a strided (non-contiguous) parameter is
/// updated through a contiguous copy made at its turn (Note [Fused optimizer steps]).
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
  /// The parameters, in the order given, group after group.
  const std::vector<Tensor>& parameters() const { return params_; }
  /// Note [Param groups]: torch's param_groups. The constructor's parameters are group 0;
  /// each optimizer's add_param_group(params, options) appends a group with options of its
  /// own (its lr, momentum, ...; libtorch's OptimizerParamGroup), and options(g) reads or
  /// changes them (both from GroupedOptimizer, Note [Grouped optimizers]). Parameters are numbered across the groups in order, as torch's
  /// state_dict numbers them, so param_state's index and state_dict's keys agree.
  size_t num_param_groups() const { return group_ends_.size(); }
  /// Group `g`'s parameters, in order.
  std::vector<Tensor> param_group(size_t g) const;
  /// The group of parameter `index`.
  size_t group_of(size_t index) const;

  /// Parameter `index`'s state (Note [Optimizer state in torch's layout]); empty before its
  /// first step (Adagrad's, made by its constructor as torch's, excepted).
  virtual ParamState param_state(size_t index) const = 0;
  /// Replaces parameter `index`'s state with `state` in the same layout (load_state_dict):
  /// its tensors are copied onto the parameter's device and dtype ("step"'s value is read);
  /// an empty state means "not stepped yet". Raises tide::Error, changing nothing, for an index
  /// out of range, an entry this optimizer does not know or lacks, or a tensor whose shape is
  /// not the parameter's.
  virtual void load_param_state(size_t index, const ParamState& state) = 0;

  /// Note [Optimizer state_dict]: torch's Optimizer.state_dict() of this optimizer, its
  /// parameters one param group: {"state": {index: {name: tensor}}, "param_groups":
  /// [{"lr": ..., ... torch 1.13's hyperparameters in its order, "params": [0, ..., n-1]}]}.
  /// tide::torch_save writes it as torch.save does, so torch's optimizer of the same kind
  /// loads it (load_state_dict), and a checkpoint saved from Python loads here. The tensors
  /// are the optimizer's own (torch's state_dict does not copy either).
  IValue state_dict() const;
  /// Reads what state_dict or torch's optimizer of the same kind (one group of as many
  /// parameters) wrote: the hyperparameters, then every parameter's state. Raises
  /// tide::Error, changing nothing, for another layout, a hyperparameter missing or invalid,
  /// or a state that does not fit its parameter.
  void load_state_dict(const IValue& state_dict);

 protected:
  /// The param group's entries torch 1.13 writes for this optimizer, "params" left out, in
  /// torch's order; torch's switches tide has no use for (foreach, capturable, ...) with
  /// torch's defaults.
  virtual std::vector<std::pair<std::string, IValue>> hyperparameters(size_t group) const = 0;
  /// Sets group `group`'s options from a param group of that layout (validated; nothing
  /// changes on error).
  virtual void load_hyperparameters(size_t group, const IValue& entries) = 0;
  /// Whether torch keeps this optimizer's "step" as a Python int (RMSprop in torch 1.13)
  /// rather than a tensor.
  virtual bool step_is_int() const { return false; }

  /// Raises tide::Error, naming `where`, for an empty list or a parameter that is undefined,
  /// not floating point or not a leaf (torch's checks).
  Optimizer(std::vector<Tensor> params, const char* where);
  /// Appends a group of `params` (checked as the constructor checks them, and refused when one
  /// is already in a group, as torch refuses it); raises changing nothing.
  void add_params(std::vector<Tensor> params, const char* where);
  /// Takes back the last add_params: for a derived optimizer whose own part of adding a group
  /// failed after it (Adagrad's sums running out of memory), so that nothing changes.
  void remove_last_group();
  /// Raises unless `g` names a group.
  void check_group(size_t g, const char* where) const;

  std::vector<Tensor> params_;

 private:
  std::vector<size_t> group_ends_;  // group g is params_[ends[g-1], ends[g])
};

}  // namespace tide::optim
