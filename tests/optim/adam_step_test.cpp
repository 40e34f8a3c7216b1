// optim::detail::adam_step_: torch's Adam rule element for element (against libtorch's chain
// of ops written with tide ops, which round the same way), its bias corrections, amsgrad's
// running maximum, its dtypes and layouts, and its errors. The trajectories against libtorch
// are in trajectory_vs_libtorch_test.cpp.

#include "optim/adam_step.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "support/error_of.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"

using namespace tide;
using ::testing::HasSubstr;
using optim::AdamOptions;
using optim::detail::adam_step_;
using test::error_of;

namespace {

/// libtorch's Adam::step for one parameter, op by op (addcmul and addcdiv spelled out in
/// ATen's order: s + (v * a) * b and s + (v * a) / b).
void adam_by_ops(Tensor& p, const Tensor& grad, Tensor& m, Tensor& v, Tensor& v_max,
                 int64_t step, const AdamOptions& o) {
  const auto [beta1, beta2] = o.betas();
  const double bias_correction1 = 1 - std::pow(beta1, static_cast<double>(step));
  const double bias_correction2 = 1 - std::pow(beta2, static_cast<double>(step));
  Tensor g = o.maximize() ? grad.neg() : grad;
  if (o.weight_decay() != 0) g = g.add(p, o.weight_decay());
  m = m.mul(beta1).add(g, 1 - beta1);
  v = v.mul(beta2).add(g.mul(1 - beta2).mul(g));
  Tensor second = v;
  if (o.amsgrad()) second = v_max = maximum(v_max, v);
  const Tensor denom = second.sqrt().div(std::sqrt(bias_correction2)).add(o.eps());
  p = p.add(m.mul(-(o.lr() / bias_correction1)).div(denom));
}

/// Same dtype, shape and bits.
bool same(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  const Tensor x = a.cpu().contiguous(), y = b.cpu().contiguous();
  return std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) == 0;
}

std::vector<AdamOptions> every_combination() {
  return {AdamOptions(),
          AdamOptions(0.1).weight_decay(0.1),
          AdamOptions(0.01).betas({0.8, 0.9}).eps(1e-3).amsgrad(true),
          AdamOptions(0.05).betas({0.5, 0.5}).weight_decay(0.01).amsgrad(true).maximize(true)};
}

}  // namespace

TEST(AdamStep, FirstStepFromZeroStateMovesEachElementByAboutLrAgainstItsGradient) {
  // Step 1 from zeros: the bias corrections make m_hat = g and v_hat = g^2 exactly in real
  // arithmetic, so the update is lr * g / (|g| + eps).
  Tensor p = tensor({1.0, -2.0, 3.0, 0.5}, kFloat64);
  const Tensor g = tensor({0.5, -4.0, 1e-3, 0.0}, kFloat64);
  Tensor m = zeros_like(p), v = zeros_like(p), none;
  adam_step_(p, g, m, v, none, 1, AdamOptions(0.1));
  const std::vector<double> got = p.tolist<double>();
  const std::vector<double> start{1.0, -2.0, 3.0, 0.5}, grad{0.5, -4.0, 1e-3, 0.0};
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], start[i] - 0.1 * grad[i] / (std::abs(grad[i]) + 1e-8), 1e-12) << i;
  }
  EXPECT_EQ(m.tolist<double>()[1], (1 - 0.9) * -4.0);
  EXPECT_EQ(v.tolist<double>()[1], (1 - 0.999) * -4.0 * -4.0);
}

TEST(AdamStep, EqualsLibtorchsChainOfOpsBitForBitForEveryOptionCombinationAndSteps) {
  manual_seed(17);
  for (Dtype dtype : {kFloat32, kFloat64}) {
    for (const AdamOptions& o : every_combination()) {
      SCOPED_TRACE(::testing::Message() << name(dtype) << " lr " << o.lr() << " amsgrad "
                                        << o.amsgrad() << " maximize " << o.maximize());
      Tensor p = randn({300, 257}).to(dtype), ep = p.clone();
      Tensor m = zeros_like(p), v = zeros_like(p), v_max = zeros_like(p);
      Tensor em = m.clone(), ev = v.clone(), ev_max = v_max.clone();
      for (int64_t step = 1; step <= 4; ++step) {
        // Shrinking gradients make exp_avg_sq fall, so amsgrad's maximum is exercised.
        const Tensor g = randn({300, 257}).to(dtype).mul(1.0 / static_cast<double>(step * step));
        adam_step_(p, g, m, v, v_max, step, o);
        adam_by_ops(ep, g, em, ev, ev_max, step, o);
        ASSERT_TRUE(same(p, ep)) << "step " << step;
        ASSERT_TRUE(same(m, em)) << "step " << step;
        ASSERT_TRUE(same(v, ev)) << "step " << step;
        if (o.amsgrad()) {
          ASSERT_TRUE(same(v_max, ev_max)) << "step " << step;
        }
      }
    }
  }
}

TEST(AdamStep, AmsgradNormalizesByTheRunningMaximumOfTheSecondMoment) {
  Tensor p = tensor({1.0, 1.0}, kFloat64), q = p.clone();
  const Tensor g = tensor({1.0, 1.0}, kFloat64);
  Tensor m = zeros_like(p), v = zeros_like(p), v_max = tensor({100.0, 0.0}, kFloat64);
  Tensor qm = zeros_like(p), qv = zeros_like(p), none;
  const AdamOptions o = AdamOptions(0.1).amsgrad(true);
  adam_step_(p, g, m, v, v_max, 1, o);
  adam_step_(q, g, qm, qv, none, 1, AdamOptions(0.1));
  EXPECT_EQ(v_max.tolist<double>(), (std::vector<double>{100.0, v.tolist<double>()[1]}));
  const std::vector<double> ps = p.tolist<double>(), qs = q.tolist<double>();
  EXPECT_GT(ps[0], qs[0]) << "a larger maximum makes a smaller step";
  EXPECT_EQ(ps[1], qs[1]) << "where the maximum is the current second moment, as plain Adam";
}

TEST(AdamStep, BiasCorrectionsFollowTheStepNumber) {
  // The same state and gradient at step 1 and at step 50 move the parameter differently.
  Tensor p1 = tensor({1.0}, kFloat64), p50 = p1.clone();
  Tensor m1 = tensor({0.2}, kFloat64), v1 = tensor({0.3}, kFloat64), none;
  Tensor m50 = m1.clone(), v50 = v1.clone();
  adam_step_(p1, tensor({0.5}, kFloat64), m1, v1, none, 1, AdamOptions(0.1));
  adam_step_(p50, tensor({0.5}, kFloat64), m50, v50, none, 50, AdamOptions(0.1));
  EXPECT_EQ(m1.item<double>(), m50.item<double>());
  EXPECT_NE(p1.item<double>(), p50.item<double>());
  const double m = m50.item<double>(), v = v50.item<double>();
  const double expected = 1.0 + -(0.1 / (1 - std::pow(0.9, 50.0))) * m /
                                    (std::sqrt(v) / std::sqrt(1 - std::pow(0.999, 50.0)) + 1e-8);
  EXPECT_EQ(p50.item<double>(), expected);
}

TEST(AdamStep, MaximizeAscendsAsAStepWithTheNegatedGradient) {
  manual_seed(4);
  const Tensor p0 = randn({64}), g = randn({64});
  Tensor p = p0.clone(), m = zeros_like(p0), v = zeros_like(p0), vm = zeros_like(p0);
  Tensor q = p0.clone(), qm = zeros_like(p0), qv = zeros_like(p0), qvm = zeros_like(p0);
  const AdamOptions o = AdamOptions(0.1).weight_decay(0.1).amsgrad(true);
  for (int64_t step = 1; step <= 2; ++step) {
    adam_step_(p, g, m, v, vm, step, AdamOptions(o).maximize(true));
    adam_step_(q, g.neg(), qm, qv, qvm, step, o);
  }
  EXPECT_TRUE(same(p, q));
  EXPECT_TRUE(same(m, qm));
}

TEST(AdamStep, SixteenBitParametersComputeInFloatAndRoundOnce) {
  manual_seed(6);
  for (Dtype dtype : {kFloat16, kBFloat16}) {
    SCOPED_TRACE(name(dtype));
    Tensor p = randn({1000}).to(dtype), m = randn({1000}).to(dtype);
    Tensor v = randn({1000}).abs().to(dtype), v_max = randn({1000}).abs().to(dtype);
    const Tensor g = randn({1000}).to(dtype);
    Tensor p32 = p.to(kFloat32), m32 = m.to(kFloat32), v32 = v.to(kFloat32),
           v_max32 = v_max.to(kFloat32);
    const AdamOptions o = AdamOptions(0.01).weight_decay(0.01).amsgrad(true);
    adam_step_(p, g, m, v, v_max, 3, o);
    adam_step_(p32, g.to(kFloat32), m32, v32, v_max32, 3, o);
    EXPECT_TRUE(same(p, p32.to(dtype)));
    EXPECT_TRUE(same(m, m32.to(dtype)));
    EXPECT_TRUE(same(v, v32.to(dtype)));
    EXPECT_TRUE(same(v_max, v_max32.to(dtype)));
  }
}

TEST(AdamStep, StridedParametersAreUpdatedInPlaceLikeContiguousOnes) {
  manual_seed(12);
  Tensor base = randn({4, 6});
  const Tensor g = randn({6, 4});
  Tensor p = base.t(), expected = p.contiguous();
  Tensor m = zeros({6, 4}), v = zeros({6, 4}), em = zeros({6, 4}), ev = zeros({6, 4}), none;
  adam_step_(p, g, m, v, none, 1, AdamOptions(0.1));
  adam_step_(expected, g, em, ev, none, 1, AdamOptions(0.1));
  EXPECT_TRUE(same(base.t(), expected));
  EXPECT_TRUE(same(m, em));
}

TEST(AdamStep, RejectsBadStepsStateAndOptionsSayingWhatWasExpected) {
  Tensor p = zeros({2, 2}), m = zeros({2, 2}), v = zeros({2, 2}), none;
  const Tensor g = zeros({2, 2});
  EXPECT_THAT(error_of([&] { adam_step_(p, g, m, v, none, 0, AdamOptions()); }),
              HasSubstr("[optim::Adam::step] expected step >= 1"));
  EXPECT_THAT(error_of([&] { adam_step_(p, g, m, v, none, 1, AdamOptions().amsgrad(true)); }),
              HasSubstr("[optim::Adam::step] expected max_exp_avg_sq for the parameter, found an "
                        "undefined tensor"));
  Tensor small = zeros({2});
  EXPECT_THAT(error_of([&] { adam_step_(p, g, small, v, none, 1, AdamOptions()); }),
              HasSubstr("expected exp_avg of the parameter's shape (2, 2), found (2,)"));
  Tensor half_v = zeros({2, 2}, kFloat16);
  EXPECT_THAT(error_of([&] { adam_step_(p, g, m, half_v, none, 1, AdamOptions()); }),
              HasSubstr("expected exp_avg_sq of the parameter's dtype float32, found float16"));
  EXPECT_THAT(error_of([&] { adam_step_(p, g, m, v, none, 1, AdamOptions().betas({0.9, 1.0})); }),
              HasSubstr("[optim::Adam] Invalid beta parameter at index 1: 1"));
}
