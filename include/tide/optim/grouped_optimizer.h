#pragma once
// GroupedOptimizer: what SGD, Adam, AdamW, RMSprop and Adagrad share about their param groups
// (Note [Param groups] in optimizer.h) — each group's options, options(g), add_param_group —
// and about their per-parameter state.

#include <cstddef>
#include <vector>

#include "tide/optim/optimizer.h"
#include "tide/tensor.h"

namespace tide::optim {

/// Note [Grouped optimizers]: an optimizer of options type `Options` (SGDOptions, ...) and
/// per-parameter state `State` derives from GroupedOptimizer<Options, State>, which keeps one
/// Options per group and one State per parameter (numbered across the groups, as the
/// Optimizer's parameters) and gives the group calls every optimizer has with its own options
/// type (so options(g).lr(0.1).momentum(0.9) chains as libtorch's). A template rather than a
/// virtual interface: the options types share no base (they are libtorch's plain option
/// structs), and a step reads its groups' options as plain members — no virtual call or
/// allocation per parameter or element. The optimizer keeps its step and says how its State
/// reads and writes in torch's layout; its constructor passes its name ("optim::Adam", for
/// error messages) and, when a parameter's state is made as it joins (Adagrad's running sum),
/// the function that makes it. The members are defined in src/optim/grouped_optimizer_impl.h
/// and instantiated once per optimizer, in its source file.
template <class Options, class State>
class GroupedOptimizer : public Optimizer {
 public:
  /// Group 0's options (Note [Param groups]); changing them applies from the next step.
  const Options& options() const { return options_.front(); }
  Options& options() { return options_.front(); }
  /// Group `group`'s options; raises unless `group` names a group.
  const Options& options(size_t group) const;
  Options& options(size_t group);
  /// torch's add_param_group: `params` join as a new group with `options` of their own (both
  /// checked as the constructor checks them; raises changing nothing).
  void add_param_group(std::vector<Tensor> params, Options options);
  /// Parameter `index`'s state in torch's layout (Note [Optimizer state in torch's layout]).
  ParamState param_state(size_t index) const override;
  void load_param_state(size_t index, const ParamState& state) override;

 protected:
  /// Makes the state of a parameter as it joins (with its group's options); State{} when null.
  using MakeState = State (*)(const Tensor& param, const Options& options);

  /// Checks `params` (Optimizer's checks, naming `name`) and then `options`.
  GroupedOptimizer(std::vector<Tensor> params, Options options, const char* name,
                   MakeState make_state = nullptr);

  /// Raises unless every group's options are valid: every step checks them, as torch's.
  void validate_options() const;
  /// The options of parameter `index`'s group.
  const Options& options_of(size_t index) const { return options_[group_of(index)]; }

  /// `state` in torch's layout (empty: not stepped yet).
  virtual ParamState to_torch_layout(const State& state) const = 0;
  /// A state read from torch's layout for `param` (LoadedState's checks, naming `where`).
  virtual State from_torch_layout(const ParamState& state, const Tensor& param,
                                  const char* where) const = 0;

  std::vector<Options> options_;  // by group
  std::vector<State> state_;      // by parameter

 private:
  /// Appends the state of the parameters that joined since the last call.
  void add_states(const Options& options);

  const char* name_;
  MakeState make_state_;
};

}  // namespace tide::optim
