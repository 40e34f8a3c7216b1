#pragma once
// Note [Optimizers hold parameters]: per-parameter state follows its parameter's device and
// dtype.

#include "tide/tensor.h"

namespace tide::optim::detail {

/// `state` on `param`'s device and in its dtype (moved when the parameter moved); undefined
/// stays undefined.
inline void follow_parameter(Tensor& state, const Tensor& param) {
  if (state.defined() && (state.device() != param.device() || state.dtype() != param.dtype())) {
    state = state.to(param.device(), param.dtype());
  }
}

}  // namespace tide::optim::detail
