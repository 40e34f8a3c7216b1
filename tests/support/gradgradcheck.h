#pragma once
// gradgradcheck: second derivatives against central differences, as
// torch.autograd.gradgradcheck. The first gradients of sum(f(inputs) * weights) are computed
// with create_graph (so they carry a graph), flattened into one tensor, and that function of
// the inputs goes through gradcheck (tests/support/gradcheck.h): its analytic gradient is a
// double backward, its numeric one differences of first gradients.

#include <optional>
#include <vector>

#include "support/gradcheck.h"

namespace tide::test {

/// The first gradients of sum(f(x) * weights) w.r.t. x's float64 entries, flattened and
/// concatenated; made with create_graph when x's entries require grad (gradcheck's analytic
/// pass), from fresh leaves otherwise (its numeric pass, under no_grad).
inline Tensor first_gradients(const GradFn& f, const std::vector<Tensor>& x) {
  AutoGradMode on(true);
  std::vector<Tensor> in, wrt;
  for (const Tensor& t : x) {
    Tensor leaf = t;
    if (t.dtype() == kFloat64 && !t.requires_grad()) leaf = t.detach().requires_grad_();
    in.push_back(leaf);
    if (leaf.dtype() == kFloat64) wrt.push_back(leaf);
  }
  const Tensor y = f(in);
  const Tensor out = (y * reduction_weights(y).to(y.device()).to(y.dtype())).sum();
  const std::vector<Tensor> g =
      autograd::grad({out}, wrt, {}, std::nullopt, /*allow_unused=*/true, /*create_graph=*/true);
  std::vector<Tensor> flat;
  for (size_t i = 0; i < g.size(); ++i)
    flat.push_back(g[i].defined() ? g[i].reshape({-1}) : zeros({wrt[i].numel()}, dtype(kFloat64)));
  return cat(flat, 0);
}

/// Checks the second derivatives of f w.r.t. its float64 inputs (cpu tensors).
inline ::testing::AssertionResult gradgradcheck(const GradFn& f, const std::vector<Tensor>& inputs,
                                                double eps = 1e-6, double atol = 1e-5,
                                                double rtol = 1e-3) {
  return gradcheck([f](const std::vector<Tensor>& x) { return first_gradients(f, x); }, inputs,
                   eps, atol, rtol);
}

}  // namespace tide::test
