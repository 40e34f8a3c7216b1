#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using ::testing::Pointwise;

namespace {

// Log-probabilities for 3 samples of 3 classes; the losses below are read off by hand.
Tensor logp() {
  return tensor({{-1.0f, -2.0f, -3.0f}, {-0.5f, -1.5f, -2.5f}, {-0.1f, -0.2f, -0.3f}});
}
Tensor targets() { return tensor({0, 2, 1}); }  // picks -1.0, -2.5, -0.2
Tensor class_weight() { return tensor({1.f, 2.f, 3.f}); }

const double kLogZ = std::log(1 + std::exp(1.0) + std::exp(2.0));  // logsumexp(0, 1, 2)

}  // namespace

TEST(NllLoss, WithEachReduction) {
  Tensor none = nll_loss(logp(), targets(), {}, Reduction::None);
  EXPECT_THAT(none.sizes(), ElementsAre(3));
  EXPECT_THAT(none.tolist<float>(), Pointwise(FloatNear(1e-6f), std::vector<float>{1.0f, 2.5f, 0.2f}));
  Tensor s = nll_loss(logp(), targets(), {}, Reduction::Sum);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_NEAR(s.item<float>(), 3.7f, 1e-6);
  Tensor m = nll_loss(logp(), targets());
  EXPECT_EQ(m.dim(), 0);
  EXPECT_EQ(m.dtype(), kFloat32);
  EXPECT_NEAR(m.item<float>(), 3.7f / 3, 1e-6);
}

TEST(NllLoss, WithClassWeightsMeanDividesByTheWeightSum) {
  Tensor none = nll_loss(logp(), targets(), class_weight(), Reduction::None);
  EXPECT_THAT(none.tolist<float>(), Pointwise(FloatNear(1e-6f), std::vector<float>{1.0f, 7.5f, 0.4f}));
  EXPECT_NEAR(nll_loss(logp(), targets(), class_weight(), Reduction::Sum).item<float>(), 8.9f, 1e-5);
  // weights of the targets: 1 + 3 + 2
  EXPECT_NEAR(nll_loss(logp(), targets(), class_weight(), Reduction::Mean).item<float>(), 8.9f / 6,
              1e-6);
}

TEST(NllLoss, IgnoresTargetsEqualToIgnoreIndex) {
  Tensor t = tensor({0, -100, 1});
  EXPECT_THAT(nll_loss(logp(), t, {}, Reduction::None).tolist<float>(),
              Pointwise(FloatNear(1e-6f), std::vector<float>{1.0f, 0.f, 0.2f}));
  EXPECT_NEAR(nll_loss(logp(), t).item<float>(), 1.2f / 2, 1e-6);
  EXPECT_NEAR(nll_loss(logp(), t, class_weight()).item<float>(), 1.4f / 3, 1e-6);
  EXPECT_NEAR(nll_loss(logp(), targets(), {}, Reduction::Sum, 2).item<float>(), 1.2f, 1e-6);
}

TEST(NllLoss, MeanOfOnlyIgnoredTargetsIsNaN) {
  Tensor t = tensor({-100, -100, -100});
  EXPECT_TRUE(std::isnan(nll_loss(logp(), t).item<float>()));
  EXPECT_EQ(nll_loss(logp(), t, {}, Reduction::Sum).item<float>(), 0.f);
}

TEST(NllLoss, OfOneUnbatchedSample) {
  Tensor x = tensor({-1.f, -2.f, -3.f});
  Tensor t = tensor(int64_t{2});
  Tensor l = nll_loss(x, t);
  EXPECT_EQ(l.dim(), 0);
  EXPECT_EQ(l.item<float>(), 3.f);
  Tensor none = nll_loss(x, t, tensor({1.f, 1.f, 0.5f}), Reduction::None);
  EXPECT_EQ(none.dim(), 0);
  EXPECT_EQ(none.item<float>(), 1.5f);
}

TEST(NllLoss, OfNonContiguousAndDoubleInputs) {
  Tensor x = logp().t().t();
  Tensor xt = logp().t().contiguous().t();  // same values, column-major
  ASSERT_FALSE(xt.is_contiguous());
  EXPECT_NEAR(nll_loss(xt, targets()).item<float>(), nll_loss(x, targets()).item<float>(), 1e-7);
  Tensor d = nll_loss(logp().to(kFloat64), targets(), class_weight().to(kFloat64), Reduction::Sum);
  EXPECT_EQ(d.dtype(), kFloat64);
  EXPECT_NEAR(d.item<double>(), 8.9, 1e-6);
}

TEST(NllLoss, OfAnEmptyBatch) {
  Tensor x = empty({0, 3});
  Tensor t = empty({0}, dtype(kInt64));
  EXPECT_TRUE(std::isnan(nll_loss(x, t).item<float>()));
  EXPECT_EQ(nll_loss(x, t, {}, Reduction::Sum).item<float>(), 0.f);
  EXPECT_THAT(nll_loss(x, t, {}, Reduction::None).sizes(), ElementsAre(0));
}

TEST(NllLoss, RejectsTargetsOutOfBoundsNamingValueAndClassCount) {
  std::string e = error_of([] { nll_loss(logp(), tensor({0, 5, 1})); });
  EXPECT_THAT(e, HasSubstr("[nll_loss] Target 5 is out of bounds."));
  EXPECT_THAT(e, HasSubstr("[0, 3)"));
  EXPECT_THAT(e, HasSubstr("position 1"));
  EXPECT_THAT(error_of([] { nll_loss(logp(), tensor({0, -1, 1}), {}, Reduction::None); }),
              HasSubstr("Target -1 is out of bounds."));
  EXPECT_THAT(error_of([] { nll_loss(tensor({-1.f, -2.f}), tensor(int64_t{2})); }),
              HasSubstr("Target 2 is out of bounds."));
}

TEST(NllLoss, RejectsBadShapesAndDtypes) {
  EXPECT_THAT(error_of([] { nll_loss(zeros({2, 3, 4}), tensor({0, 1})); }),
              HasSubstr("[nll_loss] input tensor should be 1D or 2D"));
  EXPECT_THAT(error_of([] { nll_loss(logp(), tensor({{0, 1, 2}})); }),
              HasSubstr("[nll_loss] 0D or 1D target tensor expected, multi-target not supported"));
  EXPECT_THAT(error_of([] { nll_loss(logp(), tensor({0, 1})); }),
              HasSubstr("[nll_loss] Expected input batch_size (3) to match target batch_size (2)"));
  EXPECT_THAT(error_of([] { nll_loss(tensor({-1.f, -2.f}), tensor({0})); }),
              HasSubstr("needs a 0-dim target"));
  EXPECT_THAT(error_of([] { nll_loss(logp(), tensor({0, 2, 1}, dtype(kInt32))); }),
              HasSubstr("[nll_loss] expected scalar type Long but found Int"));
  EXPECT_THAT(error_of([] { nll_loss(tensor({{1, 2}}), tensor({0})); }),
              HasSubstr("[nll_loss] \"nll_loss_out_frame\" not implemented for 'Long'"));
  EXPECT_THAT(error_of([] { nll_loss(logp(), targets(), tensor({1.f, 2.f})); }),
              HasSubstr("[nll_loss] weight tensor should be defined either for all 3 classes or no "
                        "classes but got weight tensor of shape: (2,)"));
  EXPECT_THAT(error_of([] { nll_loss(logp(), targets(), class_weight().to(kFloat64)); }),
              HasSubstr("[nll_loss] expected scalar type Float but found Double for weight"));
  EXPECT_THAT(error_of([] { nll_loss(Tensor(), targets()); }),
              HasSubstr("[nll_loss] expected a defined tensor for input"));
}

TEST(CrossEntropy, IsNllLossOfLogSoftmax) {
  Tensor logits = tensor({{0.f, 1.f, 2.f}, {2.f, 1.f, 0.f}});
  Tensor t = tensor({2, 1});
  const float l0 = static_cast<float>(kLogZ - 2), l1 = static_cast<float>(kLogZ - 1);
  EXPECT_THAT(cross_entropy(logits, t, {}, Reduction::None).tolist<float>(),
              Pointwise(FloatNear(1e-6f), std::vector<float>{l0, l1}));
  EXPECT_NEAR(cross_entropy(logits, t).item<float>(), (l0 + l1) / 2, 1e-6);
  EXPECT_NEAR(cross_entropy(logits, t, {}, Reduction::Sum).item<float>(), l0 + l1, 1e-6);
  EXPECT_NEAR(cross_entropy(logits, t, tensor({1.f, 1.f, 3.f})).item<float>(), (3 * l0 + l1) / 4,
              1e-6);
  EXPECT_NEAR(cross_entropy(logits, tensor({2, -100})).item<float>(), l0, 1e-6);
}

TEST(CrossEntropy, OfOneUnbatchedSampleUsesDimZero) {
  Tensor l = cross_entropy(tensor({0.f, 1.f, 2.f}), tensor(int64_t{0}));
  EXPECT_EQ(l.dim(), 0);
  EXPECT_NEAR(l.item<float>(), kLogZ, 1e-6);
}

TEST(CrossEntropy, ProbabilityTargetsAreTheWeightedSumOfMinusPLogQ) {
  Tensor logits = tensor({{0.f, 1.f, 2.f}, {2.f, 1.f, 0.f}});
  Tensor p = tensor({{0.f, 0.5f, 0.5f}, {1.f, 0.f, 0.f}});
  const float l0 = static_cast<float>(kLogZ - 1.5), l1 = static_cast<float>(kLogZ - 2);
  EXPECT_THAT(cross_entropy(logits, p, {}, Reduction::None).tolist<float>(),
              Pointwise(FloatNear(1e-6f), std::vector<float>{l0, l1}));
  EXPECT_NEAR(cross_entropy(logits, p).item<float>(), (l0 + l1) / 2, 1e-6);
  // The mean divides by the number of samples, not by the weights (unlike class indices).
  Tensor w = tensor({2.f, 1.f, 1.f});
  EXPECT_NEAR(cross_entropy(logits, p, w).item<float>(), (l0 + 2 * l1) / 2, 1e-6);
  // One-hot probabilities give the class-index loss.
  EXPECT_NEAR(cross_entropy(logits, tensor({{0.f, 0.f, 1.f}, {0.f, 1.f, 0.f}})).item<float>(),
              cross_entropy(logits, tensor({2, 1})).item<float>(), 1e-6);
}

TEST(CrossEntropy, LabelSmoothingMixesInTheUniformTarget) {
  Tensor logits = tensor({{0.f, 1.f, 2.f}, {2.f, 1.f, 0.f}});
  const double s = 0.3;
  // The uniform part: s/C times the sum of -log q over the classes.
  const double uniform = 3 * kLogZ - 3;
  const double l0 = (1 - s) * (kLogZ - 2) + s / 3 * uniform;
  EXPECT_NEAR(cross_entropy(logits, tensor({2, -100}), {}, Reduction::Sum, -100, s).item<float>(),
              l0, 1e-5);
  // The same as probability targets smoothed the same way.
  EXPECT_NEAR(cross_entropy(logits, tensor({2, 1}), {}, Reduction::Mean, -100, s).item<float>(),
              cross_entropy(logits, tensor({{0.f, 0.f, 1.f}, {0.f, 1.f, 0.f}}), {},
                            Reduction::Mean, -100, s)
                  .item<float>(),
              1e-6);
  EXPECT_THAT(error_of([&] { cross_entropy(logits, tensor({2, 1}), {}, Reduction::Mean, -100, -0.1); }),
              HasSubstr("[cross_entropy] label_smoothing must be between 0.0 and 1.0. Got: -0.1"));
}

TEST(CrossEntropy, SpatialInputsHaveTheClassDimSecond) {
  // (N=1, C=3, 2): position 0 has logits (0, 1, 2), position 1 has (2, 1, 0).
  Tensor logits = tensor({{{0.f, 2.f}, {1.f, 1.f}, {2.f, 0.f}}});
  Tensor none = cross_entropy(logits, tensor({{2, 1}}), {}, Reduction::None);
  EXPECT_THAT(none.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(none.tolist<float>(), Pointwise(FloatNear(1e-6f),
                                              std::vector<float>{static_cast<float>(kLogZ - 2),
                                                                 static_cast<float>(kLogZ - 1)}));
}

TEST(CrossEntropy, RejectsBadTargets) {
  Tensor logits = tensor({{0.f, 1.f, 2.f}});
  EXPECT_THAT(error_of([&] { cross_entropy(logits, tensor({3})); }),
              HasSubstr("[nll_loss] Target 3 is out of bounds."));
  // A floating target of another shape than the input is not probabilities: it must be indices.
  EXPECT_THAT(error_of([&] { cross_entropy(logits, tensor({0.f})); }),
              HasSubstr("[cross_entropy] expected scalar type Long but found Float"));
  EXPECT_THAT(error_of([&] { cross_entropy(logits, tensor({{0, 0, 1}})); }),
              HasSubstr("[cross_entropy] Expected floating point type for target with class "
                        "probabilities, got Long"));
  EXPECT_THAT(error_of([&] { cross_entropy(zeros({1, 3, 2}), tensor({0})); }),
              HasSubstr("[cross_entropy] Expected target size (1, 2), got (1,)"));
  EXPECT_THAT(error_of([&] { cross_entropy(logits, tensor({0, 1})); }),
              HasSubstr("[cross_entropy] Expected input batch_size (1) to match target batch_size (2)"));
}
