#pragma once
// gradcheck: autograd's gradients against central differences in float64, as
// torch.autograd.gradcheck. The function's output is reduced to a scalar with fixed, distinct
// weights of both signs (so that no error cancels by symmetry), and every element of every
// float64 input is perturbed by +-eps. Inputs of other dtypes (indices, masks) are passed as
// they are and not differentiated.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/tensor.h"

namespace tide::test {

using GradFn = std::function<Tensor(const std::vector<Tensor>&)>;

/// Standard normal float64 draws of `shape` from a fixed seed: a gradcheck test's usual input.
inline Tensor rnd(std::vector<int64_t> shape, uint64_t seed) {
  manual_seed(seed);
  return randn(std::move(shape), dtype(kFloat64));
}

/// Fixed weights with t's shape (float64, on cpu): 0.5 + 0.21 * ((7 i mod 11) - 5).
inline Tensor reduction_weights(const Tensor& t) {
  Tensor w = empty({t.numel()}, tide::dtype(kFloat64));
  double* p = w.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = 0.5 + 0.21 * static_cast<double>((7 * i) % 11 - 5);
  return w.view(t.sizes());
}

/// sum(f(inputs) * weights) as a double, without recording.
inline double weighted_output(const GradFn& f, const std::vector<Tensor>& inputs) {
  NoGradGuard no_grad;
  const Tensor y = f(inputs).to(kFloat64).cpu();
  return (y * reduction_weights(y)).sum().item<double>();
}

/// The analytic gradients of sum(f(inputs) * weights) w.r.t. the float64 inputs (undefined
/// for the others), through backward() and grad().
inline std::vector<Tensor> analytic_gradients(const GradFn& f, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> leaves;
  for (const Tensor& t : inputs) {
    Tensor leaf = t.detach().clone();
    if (leaf.dtype() == kFloat64) leaf.requires_grad_();
    leaves.push_back(leaf);
  }
  const Tensor y = f(leaves);
  (y * reduction_weights(y).to(y.device()).to(y.dtype())).sum().backward();
  std::vector<Tensor> out;
  for (const Tensor& l : leaves) out.push_back(l.requires_grad() ? l.grad() : Tensor());
  return out;
}

/// Checks every float64 input's gradient; inputs must be cpu tensors.
inline ::testing::AssertionResult gradcheck(const GradFn& f, const std::vector<Tensor>& inputs,
                                            double eps = 1e-6, double atol = 1e-5,
                                            double rtol = 1e-3) {
  const std::vector<Tensor> analytic = analytic_gradients(f, inputs);
  std::vector<Tensor> work;
  for (const Tensor& t : inputs) work.push_back(t.detach().clone().contiguous());
  for (size_t i = 0; i < work.size(); ++i) {
    if (work[i].dtype() != kFloat64) continue;
    if (!analytic[i].defined()) {
      return ::testing::AssertionFailure()
             << "input " << i << " got no gradient (grad() undefined)";
    }
    if (analytic[i].sizes() != work[i].sizes()) {
      return ::testing::AssertionFailure()
             << "input " << i << ": gradient shape " << analytic[i].str()
             << " differs from the input's " << work[i].str();
    }
    const std::vector<double> a = analytic[i].cpu().contiguous().tolist<double>();
    double* x = work[i].data_ptr<double>();
    for (int64_t j = 0; j < work[i].numel(); ++j) {
      const double saved = x[j];
      x[j] = saved + eps;
      const double up = weighted_output(f, work);
      x[j] = saved - eps;
      const double down = weighted_output(f, work);
      x[j] = saved;
      const double numeric = (up - down) / (2 * eps);
      const double got = a[static_cast<size_t>(j)];
      if (!(std::abs(got - numeric) <= atol + rtol * std::abs(numeric))) {
        return ::testing::AssertionFailure()
               << "input " << i << " element " << j << ": analytic " << got << ", numeric "
               << numeric << "\n  analytic gradient " << analytic[i].str();
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tide::test
