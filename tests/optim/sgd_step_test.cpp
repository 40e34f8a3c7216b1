// optim::detail::sgd_step_: torch's SGD rule element for element (against the same rule as a
// chain of tide ops, which rounds the same way), its first step, its dtypes and layouts, and
// its errors. The trajectories against libtorch are in trajectory_vs_libtorch_test.cpp.

#include "optim/sgd_step.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "support/error_of.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"

using namespace tide;
using ::testing::HasSubstr;
using optim::SGDOptions;
using optim::detail::sgd_step_;
using test::error_of;

namespace {

/// torch's _single_tensor_sgd for one parameter, op by op (tide ops round every intermediate
/// to the dtype, as torch's chain does).
void sgd_by_ops(Tensor& p, const Tensor& grad, Tensor& buf, const SGDOptions& o, bool first) {
  Tensor g = o.maximize() ? grad.neg() : grad;
  if (o.weight_decay() != 0) g = g.add(p, o.weight_decay());
  if (o.momentum() != 0) {
    buf = first ? g.clone() : buf.mul(o.momentum()).add(g, 1 - o.dampening());
    g = o.nesterov() ? g.add(buf, o.momentum()) : buf;
  }
  p = p.add(g, -o.lr());
}

/// Same dtype, shape and bits.
bool same(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  const Tensor x = a.cpu().contiguous(), y = b.cpu().contiguous();
  return std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) == 0;
}

std::vector<SGDOptions> every_combination() {
  return {SGDOptions(0.1),
          SGDOptions(0.1).momentum(0.9),
          SGDOptions(0.1).momentum(0.9).dampening(0.3),
          SGDOptions(0.05).weight_decay(0.01),
          SGDOptions(0.1).momentum(0.9).nesterov(true),
          SGDOptions(0.03).momentum(0.8).weight_decay(0.05).nesterov(true),
          SGDOptions(0.1).momentum(0.5).weight_decay(0.1).dampening(0.2).maximize(true)};
}

}  // namespace

TEST(SgdStep, FirstStepWithMomentumSetsTheBufferToTheGradientAsTorchsClone) {
  Tensor p = tensor({1.0, -2.0, 3.0}, kFloat64);
  const Tensor g = tensor({0.5, 0.25, -1.0}, kFloat64);
  Tensor buf = full({3}, 123.0, kFloat64);  // whatever it held is ignored on a first step
  sgd_step_(p, g, buf, SGDOptions(0.1).momentum(0.9), /*first_step=*/true);
  EXPECT_EQ(buf.tolist<double>(), (std::vector<double>{0.5, 0.25, -1.0}));
  EXPECT_EQ(p.tolist<double>(), (std::vector<double>{1.0 - 0.1 * 0.5, -2.0 - 0.1 * 0.25, 3.0 + 0.1}));
}

TEST(SgdStep, LaterStepsDecayTheBufferWithMomentumAndDampening) {
  Tensor p = tensor({1.0, -2.0}, kFloat64);
  const Tensor g = tensor({0.5, -1.0}, kFloat64);
  Tensor buf = tensor({2.0, 4.0}, kFloat64);
  sgd_step_(p, g, buf, SGDOptions(0.1).momentum(0.9).dampening(0.5), false);
  const std::vector<double> b{2.0 * 0.9 + 0.5 * 0.5, 4.0 * 0.9 + 0.5 * -1.0};
  EXPECT_EQ(buf.tolist<double>(), b);
  EXPECT_EQ(p.tolist<double>(), (std::vector<double>{1.0 + -0.1 * b[0], -2.0 + -0.1 * b[1]}));
}

TEST(SgdStep, NesterovStepsAlongTheGradientPlusMomentumTimesTheBuffer) {
  Tensor p = tensor({1.0}, kFloat64);
  Tensor buf = tensor({2.0}, kFloat64);
  sgd_step_(p, tensor({0.5}, kFloat64), buf, SGDOptions(0.1).momentum(0.9).nesterov(true), false);
  const double b = 2.0 * 0.9 + 1.0 * 0.5;
  EXPECT_EQ(buf.item<double>(), b);
  EXPECT_EQ(p.item<double>(), 1.0 + -0.1 * (0.5 + 0.9 * b));
}

TEST(SgdStep, WithoutMomentumTheBufferIsNotNeededNorTouched) {
  Tensor p = tensor({1.0, 2.0}, kFloat64);
  Tensor none;
  sgd_step_(p, tensor({1.0, -1.0}, kFloat64), none, SGDOptions(0.5), true);
  EXPECT_EQ(p.tolist<double>(), (std::vector<double>{0.5, 2.5}));
  Tensor buf = tensor({7.0, 7.0}, kFloat64);
  sgd_step_(p, tensor({1.0, -1.0}, kFloat64), buf, SGDOptions(0.5).weight_decay(0.5), false);
  EXPECT_EQ(buf.tolist<double>(), (std::vector<double>{7.0, 7.0}));
  EXPECT_EQ(p.tolist<double>(), (std::vector<double>{0.5 - 0.5 * (1.0 + 0.25), 2.5 - 0.5 * (-1.0 + 1.25)}));
}

TEST(SgdStep, EqualsTorchsChainOfOpsBitForBitForEveryOptionCombinationAndSteps) {
  manual_seed(7);
  // Large enough that the cpu loop runs on several threads when built with OpenMP.
  for (Dtype dtype : {kFloat32, kFloat64}) {
    for (const SGDOptions& o : every_combination()) {
      SCOPED_TRACE(::testing::Message() << name(dtype) << " lr " << o.lr() << " momentum "
                                        << o.momentum() << " nesterov " << o.nesterov());
      Tensor p = randn({300, 257}).to(dtype), expected_p = p.clone();
      Tensor buf = empty_like(p), expected_buf;
      for (int step = 0; step < 3; ++step) {
        const Tensor g = randn({300, 257}).to(dtype);
        sgd_step_(p, g, buf, o, step == 0);
        sgd_by_ops(expected_p, g, expected_buf, o, step == 0);
        ASSERT_TRUE(same(p, expected_p)) << "step " << step;
        if (o.momentum() != 0) {
          ASSERT_TRUE(same(buf, expected_buf)) << "step " << step;
        }
      }
    }
  }
}

TEST(SgdStep, MaximizeAscendsAsAStepWithTheNegatedGradient) {
  manual_seed(3);
  const Tensor p0 = randn({64}), g = randn({64});
  const SGDOptions o = SGDOptions(0.1).momentum(0.9).weight_decay(0.1).nesterov(true);
  Tensor p = p0.clone(), buf = empty_like(p0), q = p0.clone(), qbuf = empty_like(p0);
  for (bool first : {true, false}) {
    sgd_step_(p, g, buf, SGDOptions(o).maximize(true), first);
    sgd_step_(q, g.neg(), qbuf, o, first);
  }
  EXPECT_TRUE(same(p, q));
  EXPECT_TRUE(same(buf, qbuf));
}

TEST(SgdStep, SixteenBitParametersComputeInFloatAndRoundOnce) {
  manual_seed(5);
  for (Dtype dtype : {kFloat16, kBFloat16}) {
    SCOPED_TRACE(name(dtype));
    Tensor p = randn({1000}).to(dtype), buf = randn({1000}).to(dtype);
    const Tensor g = randn({1000}).to(dtype);
    // The same exact inputs in float32, one step, then rounded to the 16-bit dtype.
    Tensor p32 = p.to(kFloat32), buf32 = buf.to(kFloat32);
    const SGDOptions o = SGDOptions(0.1).momentum(0.9).weight_decay(0.01).nesterov(true);
    sgd_step_(p, g, buf, o, false);
    sgd_step_(p32, g.to(kFloat32), buf32, o, false);
    EXPECT_TRUE(same(p, p32.to(dtype)));
    EXPECT_TRUE(same(buf, buf32.to(dtype)));
  }
}

TEST(SgdStep, StridedParametersAndGradientsAreUpdatedInPlaceLikeContiguousOnes) {
  manual_seed(11);
  Tensor base = randn({5, 7});
  const Tensor g = randn({7, 5});
  Tensor p = base.t();  // a transposed view: not contiguous
  ASSERT_FALSE(p.is_contiguous());
  Tensor expected = p.contiguous(), buf = zeros({7, 5}), expected_buf = zeros({7, 5});
  const SGDOptions o = SGDOptions(0.1).momentum(0.9);
  const Tensor strided_g = g.t().contiguous().t();  // same values, transposed strides
  ASSERT_FALSE(strided_g.is_contiguous());
  sgd_step_(p, strided_g, buf, o, true);
  sgd_step_(expected, g, expected_buf, o, true);
  EXPECT_TRUE(same(p, expected));
  EXPECT_TRUE(same(base.t(), expected)) << "the view's storage itself was updated";
  EXPECT_TRUE(same(buf, expected_buf));
}

TEST(SgdStep, AnEmptyParameterIsANoOp) {
  Tensor p = empty({0, 3}), buf = empty({0, 3});
  EXPECT_NO_THROW(sgd_step_(p, empty({0, 3}), buf, SGDOptions(0.1).momentum(0.9), true));
}

TEST(SgdStep, RejectsMismatchedTensorsSayingWhatWasExpected) {
  Tensor p = zeros({2, 3}), buf = zeros({2, 3}), none;
  const SGDOptions o = SGDOptions(0.1).momentum(0.9);
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros({3, 2}), buf, o, false); }),
              HasSubstr("[optim::SGD::step] expected grad of the parameter's shape (2, 3), found (3, 2)"));
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros({2, 3}, kFloat64), buf, o, false); }),
              HasSubstr("[optim::SGD::step] expected grad of the parameter's dtype float32, found float64"));
  EXPECT_THAT(error_of([&] { sgd_step_(p, Tensor(), buf, o, false); }),
              HasSubstr("[optim::SGD::step] expected grad for the parameter, found an undefined tensor"));
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros({2, 3}), none, o, true); }),
              HasSubstr("expected momentum_buffer for the parameter, found an undefined tensor"));
  Tensor strided_buf = zeros({3, 2}).t();
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros({2, 3}), strided_buf, o, false); }),
              HasSubstr("[optim::SGD::step] expected a contiguous momentum_buffer"));
  Tensor ints = zeros({2, 3}, kInt64);
  EXPECT_THAT(error_of([&] { sgd_step_(ints, zeros({2, 3}, kInt64), buf, o, false); }),
              HasSubstr("expected a floating-point parameter (float16, bfloat16, float32 or "
                        "float64), found int64"));
  EXPECT_THAT(error_of([&] { sgd_step_(p, zeros({2, 3}), buf, SGDOptions(-1), false); }),
              HasSubstr("[optim::SGD] Invalid learning rate: -1"));
  EXPECT_EQ(p.sum().item<float>(), 0.0f) << "a rejected step changes nothing";
}
