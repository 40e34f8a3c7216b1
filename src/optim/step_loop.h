#pragma once
// The loop of an optimizer's step() over its parameters (Note [Optimizer steps are all or
// nothing] in tide/optim/optimizer.h), for optimizers that keep one State per parameter.

#include <utility>
#include <vector>

#include "optim/step_checks.h"
#include "tide/autograd.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// Every parameter with a gradient is checked and `prepare(index, param, state)` readies a
/// copy of its state (makes what is missing, moves what is elsewhere) before anything is
/// launched; then `apply(index, param, contiguous_grad, state)` updates each (allocating
/// nothing) and the readied states replace the old ones. An error before the launches changes
/// nothing. `index` numbers the parameter: its group's options are the optimizer's to find.
template <class State, class Prepare, class Apply>
void step_all_or_nothing(std::vector<Tensor>& params, std::vector<State>& state,
                         const char* where, Prepare&& prepare, Apply&& apply) {
  NoGradGuard no_grad;
  struct Update {
    size_t index;
    Tensor grad;  // contiguous
    State state;  // the state the update reads and writes, on the parameter's device
  };
  std::vector<Update> updates;
  updates.reserve(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const Tensor& p = params[i];
    const Tensor grad = p.grad();
    if (!grad.defined()) continue;
    check_parameter(p, where);
    check_like_parameter(grad, p, where, "grad");
    Update u{i, contiguous_operand(grad), state[i]};
    prepare(i, p, u.state);
    updates.push_back(std::move(u));
  }
  for (Update& u : updates) {
    Tensor& p = params[u.index];
    apply(u.index, p, u.grad, u.state);
    p.storage().bump_version();
  }
  for (Update& u : updates) state[u.index] = std::move(u.state);
}

}  // namespace tide::optim::detail
