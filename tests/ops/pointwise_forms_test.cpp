// The pointwise forms the table's samples do not reach: in-place comparisons and logical ops,
// pow_ and clamp_ with Scalars (values and recorded gradients), div's rounding modes on
// integers, torch's aliases (the same op under another name), positive, and the errors torch
// raises for each. The samples' goldens check the rest against torch itself.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "autograd/node.h"
#include "support/error_of.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/tensor.h"

using namespace tide;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

std::vector<float> f32(const Tensor& t) { return t.tolist<float>(); }
std::vector<int64_t> i64(const Tensor& t) { return t.tolist<int64_t>(); }

TEST(PointwiseForms, InPlaceComparisonsWriteOnesAndZerosInSelfsDtype) {
  Tensor x = tensor({1.0f, 2.0f, 3.0f});
  Tensor y = x.clone();
  EXPECT_EQ(&y.eq_(2.0), &y);
  EXPECT_THAT(f32(y), ElementsAre(0.0f, 1.0f, 0.0f));
  EXPECT_THAT(f32(x.clone().greater_(tensor({2.0f}))), ElementsAre(0.0f, 0.0f, 1.0f));
  EXPECT_THAT(f32(x.clone().less_equal_(2)), ElementsAre(1.0f, 1.0f, 0.0f));
  EXPECT_THAT(i64(tensor({int64_t{0}, int64_t{5}}).logical_and_(tensor({int64_t{1}, int64_t{1}}))),
              ElementsAre(0, 1));
  EXPECT_THAT(f32(x.clone().logical_not_()), ElementsAre(0.0f, 0.0f, 0.0f));
}

TEST(PointwiseForms, InPlaceComparisonOfAnotherShapeIsRefused) {
  Tensor x = tensor({1.0f, 2.0f});
  const std::string message = test::error_of([&] { x.ne_(ones({2, 2})); });
  EXPECT_THAT(message, HasSubstr("Tensor::ne_"));
}

TEST(PointwiseForms, DivRoundingModesOnIntegersAndFloats) {
  Tensor a = tensor({int64_t{7}, int64_t{-7}, int64_t{7}, int64_t{-7}});
  Tensor b = tensor({int64_t{2}, int64_t{2}, int64_t{-2}, int64_t{-2}});
  Tensor trunc = div(a, b, "trunc");
  EXPECT_EQ(trunc.dtype(), kInt64);
  EXPECT_THAT(i64(trunc), ElementsAre(3, -3, -3, 3));
  EXPECT_THAT(i64(div(a, b, "floor")), ElementsAre(3, -4, -4, 3));
  EXPECT_THAT(f32(div(a, b, std::nullopt)), ElementsAre(3.5f, -3.5f, -3.5f, 3.5f));
  EXPECT_THAT(i64(divide(a, 2, "floor")), ElementsAre(3, -4, 3, -4));
  Tensor x = tensor({-7.5f, 7.5f});
  EXPECT_THAT(f32(x.clone().div_(2.0, "trunc")), ElementsAre(-3.0f, 3.0f));
  EXPECT_THAT(test::error_of([&] { div(x, 2, "nearest"); }),
              HasSubstr("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                        "found 'nearest'"));
  EXPECT_THAT(test::error_of([&] { div(tensor({true}), tensor({true}), "trunc"); }),
              HasSubstr("not implemented for 'Bool'"));
}

TEST(PointwiseForms, PowInPlaceRecordsTheGradientOfBothOperands) {
  Tensor base = tensor({2.0, 3.0}).requires_grad_();
  Tensor exponent = tensor({2.0, 0.0}).requires_grad_();
  Tensor r = base * 1;
  r.pow_(exponent);
  EXPECT_THAT(r.tolist<double>(), ElementsAre(4.0, 1.0));
  r.sum().backward();
  // d/db b^e = e b^(e-1) (0 where e == 0), d/de b^e = b^e log b (float32 values)
  EXPECT_THAT(base.grad().tolist<double>(), ElementsAre(4.0, 0.0));
  EXPECT_THAT(exponent.grad().tolist<double>(),
              ElementsAre(DoubleNear(4.0 * std::log(2.0), 1e-5), DoubleNear(std::log(3.0), 1e-5)));
  Tensor s = tensor({3.0}).requires_grad_();
  (s * 1).pow_(3).sum().backward();
  EXPECT_THAT(s.grad().tolist<double>(), ElementsAre(27.0));
}

TEST(PointwiseForms, ClampInPlaceWithScalarsRecordsClampBackward) {
  Tensor x = tensor({0.5f, 2.0f, 3.0f}).requires_grad_();
  Tensor y = x * 1;
  y.clamp_(1.0, 2.5);
  EXPECT_THAT(f32(y), ElementsAre(1.0f, 2.0f, 2.5f));
  EXPECT_STREQ(y.grad_fn()->name(), "ClampBackward1");
  y.sum().backward();
  EXPECT_THAT(f32(x.grad()), ElementsAre(0.0f, 1.0f, 0.0f));
  EXPECT_THAT(f32(tensor({1.0f, 5.0f}).clip_(std::nullopt, 2.0)), ElementsAre(1.0f, 2.0f));
  EXPECT_THAT(test::error_of([] { tensor({int64_t{1}}).clamp_(0.5, std::nullopt); }),
              HasSubstr("can't be cast to the desired output type"));
}

TEST(PointwiseForms, AliasesAreTheirTargetOps) {
  Tensor x = tensor({0.25f, -0.5f});
  Tensor y = tensor({1.0f, 2.0f});
  EXPECT_EQ(f32(arccos(x)), f32(acos(x)));
  EXPECT_EQ(f32(x.arctan2(y)), f32(atan2(x, y)));
  EXPECT_EQ(f32(absolute(x)), f32(abs(x)));
  EXPECT_EQ(f32(negative(x)), f32(neg(x)));
  EXPECT_EQ(f32(fix(x)), f32(trunc(x)));
  EXPECT_EQ(f32(subtract(y, x, 2)), f32(sub(y, x, 2)));
  EXPECT_EQ(f32(multiply(x, y)), f32(mul(x, y)));
  EXPECT_EQ(f32(true_divide(tensor({int64_t{1}}), 2)), std::vector<float>{0.5f});
  EXPECT_EQ(greater_equal(x, 0.25).tolist<bool>(), ge(x, 0.25).tolist<bool>());
  EXPECT_EQ(f32(clip(x, -0.25, 0.0)), f32(clamp(x, -0.25, 0.0)));
  Tensor z = x.clone().requires_grad_();
  Tensor r = arcsin(z);
  EXPECT_STREQ(r.grad_fn()->name(), "AsinBackward0");  // the target's node, as torch
  Tensor w = x.clone();
  EXPECT_EQ(&w.arccos_(), &w);
  EXPECT_EQ(f32(w), f32(acos(x)));
}

TEST(PointwiseForms, PositiveIsSelfAndRefusesBool) {
  Tensor x = tensor({1.0f, -2.0f});
  EXPECT_TRUE(positive(x).is_same(x));
  EXPECT_THAT(test::error_of([] { positive(tensor({true})); }),
              HasSubstr("The `+` operator, on a bool tensor is not supported."));
}

TEST(PointwiseForms, RsubOfTwoTensorsAndItsGradient) {
  Tensor a = tensor({1.0, 2.0}).requires_grad_();
  Tensor b = tensor({5.0, 5.0}).requires_grad_();
  Tensor r = rsub(a, b, 2);
  EXPECT_THAT(r.tolist<double>(), ElementsAre(3.0, 1.0));
  r.sum().backward();
  EXPECT_THAT(a.grad().tolist<double>(), ElementsAre(-2.0, -2.0));
  EXPECT_THAT(b.grad().tolist<double>(), ElementsAre(1.0, 1.0));
}

}  // namespace
