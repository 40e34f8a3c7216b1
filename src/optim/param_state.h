#pragma once
// Reading and writing a parameter's state in torch's layout (Note [Optimizer state in torch's
// layout] in tide/optim/optimizer.h): the pieces every optimizer's param_state and
// load_param_state share.

#include <cstdint>
#include <initializer_list>
#include <string>

#include "tide/optim/optimizer.h"
#include "tide/tensor.h"

namespace tide::optim::detail {

/// torch's `state["step"]`: a 0-dim float32 cpu tensor holding `step`.
Tensor step_tensor(int64_t step);

/// Raises unless `index` names one of `count` parameters.
void check_param_index(size_t index, size_t count, const char* where);

/// A state being loaded, checked once against the names its optimizer knows: any other
/// entry, or a repeated one, raises tide::Error naming it.
class LoadedState {
 public:
  LoadedState(const ParamState& state, std::initializer_list<const char*> known,
              const char* where);

  bool empty() const { return state_.empty(); }
  bool has(const char* name) const { return find(name) != nullptr; }
  /// The step count held by "step" (a number tensor of one element); raises if missing.
  int64_t step() const;
  /// Entry `name` as the optimizer keeps it: a contiguous tensor of its own on `param`'s
  /// device, in its dtype, with its shape. Raises when the entry is missing (unless
  /// `optional`, which gives an undefined tensor), or has another shape. An undefined entry
  /// (torch's None) gives an undefined tensor.
  Tensor tensor(const char* name, const Tensor& param, bool optional = false) const;

 private:
  const Tensor* find(const char* name) const;
  const ParamState& state_;
  const char* where_;
};

}  // namespace tide::optim::detail
