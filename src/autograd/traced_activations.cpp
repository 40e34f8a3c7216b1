// The derivative of exact GELU (the other activations are compositions and record as their
// parts): g * (Phi(x) + x phi(x)), torch's GeluBackward0 for approximate="none".

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "ops/elementwise.h"

namespace tide::autograd::traced {

Tensor gelu_erf(const Tensor& self) {
  Tensor r = untraced([&] { return detail::gelu_erf(self); });
  auto node = make_node("GeluBackward0", {&self}, [](const Tensor& g, const Saved& s) {
    const Tensor x = s[0];
    if (x.requires_grad() && GradMode::is_enabled()) {
      // create_graph: Phi(x) + x phi(x) in recorded ops, so a second backward differentiates
      // it (Note [create_graph] in autograd/engine.h); the fused kernel records nothing.
      const Tensor cdf = (tide::erf(x * 0.7071067811865476) + 1) * 0.5;
      const Tensor pdf = tide::exp(x * x * -0.5) * 0.3989422804014327;
      return grads(g * (cdf + x * pdf));
    }
    return grads(g * detail::gelu_derivative(x));
  });
  if (node) {
    node->save(self);
    set_history(r, node);
  }
  return r;
}

}  // namespace tide::autograd::traced
