// The derivative of exact GELU (the other activations are compositions and record as their
// parts): g * (Phi(x) + x phi(x)), torch's GeluBackward0 for approximate="none".

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "ops/elementwise.h"

namespace tide::autograd::traced {

Tensor gelu_erf(const Tensor& self) {
  Tensor r = untraced([&] { return detail::gelu_erf(self); });
  auto node = make_node("GeluBackward0", {&self}, [](const Tensor& g, const Saved& s) {
    return grads(g * detail::gelu_derivative(s[0]));
  });
  if (node) {
    node->save(self);
    set_history(r, node);
  }
  return r;
}

}  // namespace tide::autograd::traced
