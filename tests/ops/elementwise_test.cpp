// Elementwise ops against hand-computed values: arithmetic, comparisons, where, clamp and the
// unary ops, with broadcasting, torch's type promotion, non-contiguous inputs, in-place and
// out forms, and every error path (type and message).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/tensor.h"

using namespace tide;
using ::testing::ElementsAre;
using ::testing::FloatEq;
using ::testing::DoubleEq;
using ::testing::HasSubstr;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<float> f32(const Tensor& t) { return t.tolist<float>(); }
std::vector<int64_t> i64(const Tensor& t) { return t.tolist<int64_t>(); }
std::vector<bool> bools(const Tensor& t) { return t.tolist<bool>(); }

/// Runs f, expecting tide::Error whose message contains every fragment.
template <class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected tide::Error";
  } catch (const Error& e) {
    for (const char* frag : fragments) EXPECT_THAT(e.what(), HasSubstr(frag));
  }
}

}  // namespace

// ---- arithmetic values

TEST(Elementwise, AddSubMulDivComputeElementwise) {
  Tensor a = tensor({1.f, 2.f, 3.f}), b = tensor({4.f, 5.f, 6.f});
  EXPECT_THAT(f32(add(a, b)), ElementsAre(5, 7, 9));
  EXPECT_THAT(f32(sub(a, b)), ElementsAre(-3, -3, -3));
  EXPECT_THAT(f32(mul(a, b)), ElementsAre(4, 10, 18));
  EXPECT_THAT(f32(div(a, b)), ElementsAre(FloatEq(0.25f), FloatEq(0.4f), FloatEq(0.5f)));
  EXPECT_EQ(add(a, b).dtype(), kFloat32);
}

TEST(Elementwise, AlphaScalesTheSecondOperand) {
  Tensor a = tensor({1, 2}), b = tensor({3, 4});
  EXPECT_THAT(i64(add(a, b, 2)), ElementsAre(7, 10));
  EXPECT_THAT(i64(sub(a, b, 3)), ElementsAre(-8, -10));
  EXPECT_THAT(f32(add(tensor({1.f}), 2, 0.5)), ElementsAre(2.f));
  EXPECT_THAT(i64(a.sub(1, 2)), ElementsAre(-1, 0));
}

TEST(Elementwise, IntegerDivisionIsTrueDivisionInFloat32) {
  Tensor a = tensor({1, 2, 3}), b = tensor({2, 2, 2});
  Tensor q = div(a, b);
  EXPECT_EQ(q.dtype(), kFloat32);
  EXPECT_THAT(f32(q), ElementsAre(0.5f, 1.f, 1.5f));
  EXPECT_THAT(f32(tensor({3}) / 2), ElementsAre(1.5f));
  EXPECT_EQ((tensor({true}) / tensor({true})).dtype(), kFloat32);
}

TEST(Elementwise, FloatDivisionByZeroGivesInfAndNaN) {
  std::vector<float> r = f32(tensor({1.f, -1.f, 0.f}) / 0.f);
  EXPECT_EQ(r[0], kInf);
  EXPECT_EQ(r[1], -kInf);
  EXPECT_TRUE(std::isnan(r[2]));
  std::vector<float> ri = f32(tensor({1, 0}) / tensor({0, 0}));
  EXPECT_EQ(ri[0], kInf);
  EXPECT_TRUE(std::isnan(ri[1]));
}

TEST(Elementwise, OperatorsMatchTheNamedOps) {
  Tensor a = tensor({2.f, 4.f}), b = tensor({1.f, 8.f});
  EXPECT_THAT(f32(a + b), ElementsAre(3, 12));
  EXPECT_THAT(f32(a - b), ElementsAre(1, -4));
  EXPECT_THAT(f32(a * b), ElementsAre(2, 32));
  EXPECT_THAT(f32(a / b), ElementsAre(2, 0.5));
  EXPECT_THAT(f32(a + 1), ElementsAre(3, 5));
  EXPECT_THAT(f32(1 + a), ElementsAre(3, 5));
  EXPECT_THAT(f32(a - 1), ElementsAre(1, 3));
  EXPECT_THAT(f32(10 - a), ElementsAre(8, 6));
  EXPECT_THAT(f32(a * 3), ElementsAre(6, 12));
  EXPECT_THAT(f32(3 * a), ElementsAre(6, 12));
  EXPECT_THAT(f32(a / 2), ElementsAre(1, 2));
  EXPECT_THAT(f32(8 / a), ElementsAre(4, 2));
  EXPECT_THAT(f32(-a), ElementsAre(-2, -4));
}

TEST(Elementwise, ReflectedScalarOpsOnIntegersFollowTorch) {
  Tensor a = tensor({1, 2, 4});
  Tensor r = 10 - a;
  EXPECT_EQ(r.dtype(), kInt64);
  EXPECT_THAT(i64(r), ElementsAre(9, 8, 6));
  Tensor d = 1 / a;
  EXPECT_EQ(d.dtype(), kFloat32);
  EXPECT_THAT(f32(d), ElementsAre(1.f, 0.5f, 0.25f));
  EXPECT_EQ((2.5 - a).dtype(), kFloat32);
  EXPECT_THAT(f32(2.5 - a), ElementsAre(1.5f, 0.5f, -1.5f));
}

TEST(Elementwise, CompoundAssignmentWritesIntoTheLeftOperand) {
  Tensor a = tensor({1.f, 2.f});
  Tensor alias = a;
  a += tensor({1.f, 1.f});
  a -= 0.5;
  a *= tensor({2.f, 4.f});
  a /= 2;
  EXPECT_THAT(f32(alias), ElementsAre(1.5f, 5.f));
  EXPECT_TRUE(alias.is_same(a));
}

// ---- broadcasting

TEST(Elementwise, BroadcastsAColumnAgainstARow) {
  Tensor col = tensor({{0}, {10}, {20}});     // (3, 1)
  Tensor row = tensor({{1, 2, 3, 4}});        // (1, 4)
  Tensor s = col + row;
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_THAT(i64(s), ElementsAre(1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24));
  EXPECT_THAT(i64(row - col), ElementsAre(1, 2, 3, 4, -9, -8, -7, -6, -19, -18, -17, -16));
}

TEST(Elementwise, BroadcastsLowerRankOperands) {
  Tensor m = tensor({{1.f, 2.f}, {3.f, 4.f}});
  Tensor v = tensor({10.f, 100.f});
  EXPECT_THAT(f32(m * v), ElementsAre(10, 200, 30, 400));
  EXPECT_THAT(f32(v * m), ElementsAre(10, 200, 30, 400));
}

TEST(Elementwise, ZeroDimTensorBroadcastsLikeAScalar) {
  Tensor m = tensor({{1, 2}, {3, 4}});
  Tensor z = tensor(10);
  EXPECT_EQ(z.dim(), 0);
  Tensor s = m + z;
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(i64(s), ElementsAre(11, 12, 13, 14));
  EXPECT_THAT(i64(z - m), ElementsAre(9, 8, 7, 6));
  Tensor zz = z * tensor(3);
  EXPECT_EQ(zz.dim(), 0);
  EXPECT_EQ(zz.item<int64_t>(), 30);
}

TEST(Elementwise, ZeroDimOperandKeepsItsPromotionClass) {
  Tensor f32v = tensor({1.f, 2.f});
  Tensor f64z = tensor(0.5, dtype(kFloat64));
  EXPECT_EQ((f32v + f64z).dtype(), kFloat32);
  Tensor i64v = tensor({1, 2});
  Tensor r = i64v + f64z;
  EXPECT_EQ(r.dtype(), kFloat64);
  EXPECT_THAT(r.tolist<double>(), ElementsAre(1.5, 2.5));
  Tensor i32v = tensor({1, 2}, dtype(kInt32));
  EXPECT_EQ((i32v + tensor(5)).dtype(), kInt32);
}

TEST(Elementwise, EmptyTensorsGiveEmptyResults) {
  Tensor e = empty({0, 3});
  Tensor r = e + tensor({1.f, 2.f, 3.f});
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(exp(e).numel(), 0);
  EXPECT_EQ(e.gt(0).numel(), 0);
}

TEST(Elementwise, ShapesThatDoNotBroadcastRaiseNamingBothSizes) {
  expect_error([] { add(ones({2, 3}), ones({4})); },
               {"[add]", "The size of tensor a (3) must match the size of tensor b (4) at "
                         "non-singleton dimension 1"});
  expect_error([] { eq(ones({2}), ones({3})); }, {"[eq]", "(2,)", "(3,)"});
}

// ---- type promotion through the ops

TEST(Elementwise, MixedDtypesPromoteAsTorch) {
  EXPECT_EQ((tensor({1}) + tensor({1.f})).dtype(), kFloat32);
  EXPECT_EQ((tensor({1}, dtype(kInt32)) + tensor({1})).dtype(), kInt64);
  EXPECT_EQ((tensor({1}, dtype(kUInt8)) + tensor({1}, dtype(kInt32))).dtype(), kInt32);
  EXPECT_EQ((tensor({1.f}, dtype(kFloat16)) + tensor({1.f}, dtype(kBFloat16))).dtype(), kFloat32);
  Tensor r = tensor({1, 2}) + tensor({0.5f, 0.25f});
  EXPECT_THAT(f32(r), ElementsAre(1.5f, 2.25f));
}

TEST(Elementwise, FloatScalarMakesIntegerTensorsFloat32) {
  Tensor r = tensor({1, 2}) * 1.5;
  EXPECT_EQ(r.dtype(), kFloat32);
  EXPECT_THAT(f32(r), ElementsAre(1.5f, 3.f));
  EXPECT_EQ((tensor({1}, dtype(kInt32)) + 2).dtype(), kInt32);
}

TEST(Elementwise, BoolArithmeticIsLogical) {
  Tensor t = tensor({true, true, false, false}), u = tensor({true, false, true, false});
  Tensor s = t + u;
  EXPECT_EQ(s.dtype(), kBool);
  EXPECT_THAT(bools(s), ElementsAre(true, true, true, false));
  EXPECT_THAT(bools(t * u), ElementsAre(true, false, false, false));
  Tensor i = t + 1;
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_THAT(i64(i), ElementsAre(2, 2, 1, 1));
}

TEST(Elementwise, HalfPrecisionStaysHalfWithFloatScalars) {
  Tensor h = tensor({1.5f, -2.f}, dtype(kFloat16));
  Tensor r = h * 2.5;
  EXPECT_EQ(r.dtype(), kFloat16);
  EXPECT_THAT(f32(r), ElementsAre(3.75f, -5.f));
  Tensor b = tensor({1.f, 3.f}, dtype(kBFloat16));
  Tensor q = b / tensor({2.f, 2.f}, dtype(kBFloat16));
  EXPECT_EQ(q.dtype(), kBFloat16);
  EXPECT_THAT(f32(q), ElementsAre(0.5f, 1.5f));
}

TEST(Elementwise, UInt8ArithmeticWrapsAsTorch) {
  Tensor u = tensor({250, 3}, dtype(kUInt8));
  Tensor r = u + 10;
  EXPECT_EQ(r.dtype(), kUInt8);
  EXPECT_THAT(i64(r), ElementsAre(4, 13));
}

// ---- pow, maximum, minimum

TEST(Elementwise, PowCoversTensorAndScalarForms) {
  Tensor a = tensor({1.f, 2.f, 4.f});
  EXPECT_THAT(f32(pow(a, tensor({3.f, 0.5f, -1.f}))), ElementsAre(1.f, FloatEq(std::sqrt(2.f)), 0.25f));
  EXPECT_THAT(f32(pow(a, 2)), ElementsAre(1, 4, 16));
  EXPECT_THAT(f32(pow(a, 3)), ElementsAre(1, 8, 64));
  EXPECT_THAT(f32(pow(a, 0.5)), ElementsAre(1.f, FloatEq(std::sqrt(2.f)), 2.f));
  EXPECT_THAT(f32(pow(a, -0.5)), ElementsAre(1.f, FloatEq(1 / std::sqrt(2.f)), 0.5f));
  EXPECT_THAT(f32(pow(a, -1)), ElementsAre(1.f, 0.5f, 0.25f));
  EXPECT_THAT(f32(pow(a, -2)), ElementsAre(1.f, 0.25f, 0.0625f));
  EXPECT_THAT(f32(pow(a, 1.5)), ElementsAre(1.f, FloatEq(std::pow(2.f, 1.5f)), 8.f));
  EXPECT_THAT(f32(a.pow(0)), ElementsAre(1, 1, 1));
  Tensor p = pow(2, tensor({0, 1, 3}));
  EXPECT_EQ(p.dtype(), kInt64);
  EXPECT_THAT(i64(p), ElementsAre(1, 2, 8));
  Tensor pf = pow(2.5, tensor({0, 2}));
  EXPECT_EQ(pf.dtype(), kFloat32);
  EXPECT_THAT(f32(pf), ElementsAre(1.f, 6.25f));
}

TEST(Elementwise, IntegerPowFollowsTorch) {
  EXPECT_THAT(i64(pow(tensor({3, -2, 5}), 2)), ElementsAre(9, 4, 25));
  EXPECT_THAT(i64(pow(tensor({2, 3}), tensor({10, 3}))), ElementsAre(1024, 27));
  // tensor exponents: negative powers are 0 unless |base| == 1 (torch's powi)
  EXPECT_THAT(i64(pow(tensor({2, 1, -1, -1}), tensor({-1, -2, -3, -2}))), ElementsAre(0, 1, -1, 1));
  EXPECT_EQ(pow(tensor({2}), 2.0).dtype(), kFloat32);
}

TEST(Elementwise, IntegerToNegativeScalarPowerRaises) {
  expect_error([] { pow(tensor({2, 3}), -1); },
               {"[pow]", "Integers to negative integer powers are not allowed."});
}

TEST(Elementwise, MaximumAndMinimumPickPerElementAndPromote) {
  Tensor a = tensor({1.f, 5.f, -3.f}), b = tensor({2.f, 4.f, -3.f});
  EXPECT_THAT(f32(maximum(a, b)), ElementsAre(2, 5, -3));
  EXPECT_THAT(f32(minimum(a, b)), ElementsAre(1, 4, -3));
  Tensor m = maximum(tensor({1, 7}), tensor({2.5f, 3.f}));
  EXPECT_EQ(m.dtype(), kFloat32);
  EXPECT_THAT(f32(m), ElementsAre(2.5f, 7.f));
  EXPECT_THAT(i64(a.maximum(b).to(kInt64)), ElementsAre(2, 5, -3));
}

TEST(Elementwise, MaximumAndMinimumPropagateNaN) {
  Tensor a = tensor({kNaN, 1.f, 2.f}), b = tensor({0.f, kNaN, 1.f});
  std::vector<float> mx = f32(maximum(a, b)), mn = f32(minimum(a, b));
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 2.f);
  EXPECT_TRUE(std::isnan(mn[0]) && std::isnan(mn[1]));
  EXPECT_EQ(mn[2], 1.f);
}

// ---- comparisons and where

TEST(Elementwise, ComparisonsGiveBool) {
  Tensor a = tensor({1, 2, 3}), b = tensor({3, 2, 1});
  EXPECT_EQ(eq(a, b).dtype(), kBool);
  EXPECT_THAT(bools(eq(a, b)), ElementsAre(false, true, false));
  EXPECT_THAT(bools(ne(a, b)), ElementsAre(true, false, true));
  EXPECT_THAT(bools(lt(a, b)), ElementsAre(true, false, false));
  EXPECT_THAT(bools(le(a, b)), ElementsAre(true, true, false));
  EXPECT_THAT(bools(gt(a, b)), ElementsAre(false, false, true));
  EXPECT_THAT(bools(ge(a, b)), ElementsAre(false, true, true));
  EXPECT_THAT(bools(a.eq(2)), ElementsAre(false, true, false));
  EXPECT_THAT(bools(a.ne(2)), ElementsAre(true, false, true));
  EXPECT_THAT(bools(a.lt(2)), ElementsAre(true, false, false));
  EXPECT_THAT(bools(a.le(2)), ElementsAre(true, true, false));
  EXPECT_THAT(bools(a.gt(2)), ElementsAre(false, false, true));
  EXPECT_THAT(bools(a.ge(2)), ElementsAre(false, true, true));
}

TEST(Elementwise, ComparisonsPromoteBeforeComparing) {
  Tensor a = tensor({1, 2, 3});
  EXPECT_THAT(bools(a.lt(2.5)), ElementsAre(true, true, false));
  EXPECT_THAT(bools(a.eq(2.0)), ElementsAre(false, true, false));
  EXPECT_THAT(bools(eq(a, tensor({1.f, 2.5f, 3.f}))), ElementsAre(true, false, true));
  EXPECT_THAT(bools(gt(tensor({{1}, {5}}), tensor({2, 4}))), ElementsAre(false, false, true, true));
}

TEST(Elementwise, ComparisonsWithNaNAreFalseExceptNe) {
  Tensor a = tensor({kNaN});
  EXPECT_THAT(bools(eq(a, a)), ElementsAre(false));
  EXPECT_THAT(bools(ne(a, a)), ElementsAre(true));
  EXPECT_THAT(bools(a.lt(0)), ElementsAre(false));
  EXPECT_THAT(bools(a.ge(0)), ElementsAre(false));
}

TEST(Elementwise, WhereSelectsAndBroadcasts) {
  Tensor c = tensor({true, false, true});
  Tensor a = tensor({1.f, 2.f, 3.f}), b = tensor({-1.f, -2.f, -3.f});
  EXPECT_THAT(f32(where(c, a, b)), ElementsAre(1, -2, 3));
  EXPECT_THAT(f32(a.where(c, b)), ElementsAre(1, -2, 3));
  EXPECT_THAT(f32(where(c, a, 0)), ElementsAre(1, 0, 3));
  EXPECT_THAT(f32(where(c, 0, b)), ElementsAre(0, -2, 0));
  Tensor col = tensor({{true}, {false}});  // (2, 1) against (3,)
  Tensor w = where(col, a, b);
  EXPECT_EQ(w.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(f32(w), ElementsAre(1, 2, 3, -1, -2, -3));
}

TEST(Elementwise, WherePromotesItsBranches) {
  Tensor c = tensor({true, false});
  Tensor w = where(c, tensor({1, 2}), 0.5);
  EXPECT_EQ(w.dtype(), kFloat32);
  EXPECT_THAT(f32(w), ElementsAre(1.f, 0.5f));
  EXPECT_EQ(where(c, tensor({1, 2}), tensor({1.0, 2.0}, dtype(kFloat64))).dtype(), kFloat64);
  EXPECT_EQ(where(c, tensor({1, 2}, dtype(kInt32)), 7).dtype(), kInt32);
}

TEST(Elementwise, WhereRejectsANonBoolCondition) {
  expect_error([] { where(tensor({1.f, 0.f}), tensor({1.f, 2.f}), tensor({3.f, 4.f})); },
               {"[where]", "where expected condition to be a boolean tensor, but got a tensor "
                           "with dtype Float"});
}

// ---- clamp and unary ops

TEST(Elementwise, ClampBoundsEitherOrBothSides) {
  Tensor a = tensor({-2.f, 0.5f, 3.f});
  EXPECT_THAT(f32(clamp(a, 0, 1)), ElementsAre(0.f, 0.5f, 1.f));
  EXPECT_THAT(f32(clamp(a, 0)), ElementsAre(0.f, 0.5f, 3.f));
  EXPECT_THAT(f32(clamp(a, std::nullopt, 1)), ElementsAre(-2.f, 0.5f, 1.f));
  EXPECT_THAT(f32(a.clamp(2, 1)), ElementsAre(1.f, 1.f, 1.f));  // min > max gives max
}

TEST(Elementwise, ClampKeepsNaNAndPromotesIntegersWithFloatBounds) {
  std::vector<float> r = f32(clamp(tensor({kNaN, 5.f}), 0, 1));
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 1.f);
  Tensor i = clamp(tensor({1, 2, 3}), 1.5);
  EXPECT_EQ(i.dtype(), kFloat32);
  EXPECT_THAT(f32(i), ElementsAre(1.5f, 2.f, 3.f));
  Tensor j = clamp(tensor({1, 5, 9}), 2, 6);
  EXPECT_EQ(j.dtype(), kInt64);
  EXPECT_THAT(i64(j), ElementsAre(2, 5, 6));
  EXPECT_EQ(clamp(tensor({true, false}), 0).dtype(), kInt64);
}

TEST(Elementwise, ClampWithoutBoundsRaises) {
  expect_error([] { clamp(tensor({1.f}), std::nullopt, std::nullopt); },
               {"[clamp]", "At least one of 'min' or 'max' must not be None"});
  expect_error([] { clamp(tensor({true}), false, true); }, {"[clamp]", "bool"});
}

TEST(Elementwise, UnaryOpsComputeElementwise) {
  Tensor a = tensor({-1.f, 0.f, 4.f});
  EXPECT_THAT(f32(neg(a)), ElementsAre(1.f, 0.f, -4.f));
  EXPECT_THAT(f32(abs(a)), ElementsAre(1.f, 0.f, 4.f));
  EXPECT_THAT(f32(relu(a)), ElementsAre(0.f, 0.f, 4.f));
  EXPECT_THAT(f32(sqrt(tensor({0.f, 4.f, 9.f}))), ElementsAre(0.f, 2.f, 3.f));
  EXPECT_THAT(f32(exp(tensor({0.f, 1.f}))), ElementsAre(1.f, FloatEq(std::exp(1.f))));
  EXPECT_THAT(f32(log(tensor({1.f, std::exp(2.f)}))), ElementsAre(0.f, FloatEq(2.f)));
  EXPECT_THAT(f32(sigmoid(tensor({0.f, 2.f}))), ElementsAre(0.5f, FloatEq(1 / (1 + std::exp(-2.f)))));
  EXPECT_THAT(f32(tanh(tensor({0.f, 1.f}))), ElementsAre(0.f, FloatEq(std::tanh(1.f))));
  EXPECT_THAT(f32(a.neg()), ElementsAre(1.f, 0.f, -4.f));
  EXPECT_THAT(f32(a.abs()), ElementsAre(1.f, 0.f, 4.f));
  EXPECT_THAT(f32(a.relu()), ElementsAre(0.f, 0.f, 4.f));
  EXPECT_THAT(f32(tensor({4.f}).sqrt()), ElementsAre(2.f));
  EXPECT_THAT(f32(tensor({0.f}).exp()), ElementsAre(1.f));
  EXPECT_THAT(f32(tensor({1.f}).log()), ElementsAre(0.f));
  EXPECT_THAT(f32(tensor({0.f}).sigmoid()), ElementsAre(0.5f));
  EXPECT_THAT(f32(tensor({0.f}).tanh()), ElementsAre(0.f));
}

TEST(Elementwise, UnaryOpsHandleSpecialValues) {
  std::vector<float> l = f32(log(tensor({0.f, -1.f})));
  EXPECT_EQ(l[0], -kInf);
  EXPECT_TRUE(std::isnan(l[1]));
  EXPECT_TRUE(std::isnan(f32(sqrt(tensor({-1.f})))[0]));
  EXPECT_THAT(f32(sigmoid(tensor({-kInf, kInf}))), ElementsAre(0.f, 1.f));
  std::vector<float> r = f32(relu(tensor({kNaN, -kInf})));
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 0.f);
}

TEST(Elementwise, FloatUnaryOpsOnIntegersGiveFloat32) {
  Tensor i = tensor({0, 1, 4});
  for (Tensor r : {exp(i), log(i), sqrt(i), sigmoid(i), tanh(i)}) EXPECT_EQ(r.dtype(), kFloat32);
  EXPECT_THAT(f32(sqrt(i)), ElementsAre(0.f, 1.f, 2.f));
  EXPECT_THAT(f32(exp(tensor({false, true}))), ElementsAre(1.f, FloatEq(std::exp(1.f))));
  EXPECT_THAT(i64(tensor({3, -5})).size(), 2u);
}

TEST(Elementwise, IntegerUnaryOpsKeepTheirDtype) {
  Tensor i = tensor({-3, 0, 5}, dtype(kInt32));
  EXPECT_EQ(neg(i).dtype(), kInt32);
  EXPECT_THAT(i64(neg(i)), ElementsAre(3, 0, -5));
  EXPECT_THAT(i64(abs(i)), ElementsAre(3, 0, 5));
  EXPECT_THAT(i64(relu(i)), ElementsAre(0, 0, 5));
  EXPECT_EQ(relu(i).dtype(), kInt32);
}

TEST(Elementwise, HalfUnaryOpsComputeInFloat) {
  Tensor h = tensor({0.f, 1.f}, dtype(kBFloat16));
  Tensor e = exp(h);
  EXPECT_EQ(e.dtype(), kBFloat16);
  EXPECT_THAT(f32(e), ElementsAre(1.f, static_cast<float>(BFloat16(std::exp(1.f)))));
}

TEST(Elementwise, BoolNegationAndReluRaiseTorchErrors) {
  expect_error([] { neg(tensor({true})); },
               {"[neg]", "Negation, the `-` operator, on a bool tensor is not supported"});
  expect_error([] { -tensor({true}); }, {"logical_not()"});
  expect_error([] { relu(tensor({true})); }, {"[relu]", "Boolean inputs not supported for relu"});
}

// ---- non-contiguous inputs

TEST(Elementwise, TransposedInputsAreReadThroughTheirStrides) {
  Tensor m = tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});  // (2, 3)
  Tensor t = m.t();                                        // (3, 2), not contiguous
  ASSERT_FALSE(t.is_contiguous());
  Tensor b = tensor({{10.f, 20.f}, {30.f, 40.f}, {50.f, 60.f}});
  EXPECT_THAT(f32(t + b), ElementsAre(11, 24, 32, 45, 53, 66));
  EXPECT_THAT(f32(t + t), ElementsAre(2, 8, 4, 10, 6, 12));
  EXPECT_THAT(f32(neg(t)), ElementsAre(-1, -4, -2, -5, -3, -6));
  EXPECT_THAT(bools(t.gt(3)), ElementsAre(false, true, false, true, false, true));
}

TEST(Elementwise, SlicedInputsAreReadThroughTheirStrides) {
  Tensor v = tensor({0, 1, 2, 3, 4, 5, 6, 7});
  Tensor even = v.slice(0, 0, std::nullopt, 2);  // 0 2 4 6
  Tensor odd = v.slice(0, 1, std::nullopt, 2);   // 1 3 5 7
  EXPECT_THAT(i64(even * odd), ElementsAre(0, 6, 20, 42));
  EXPECT_THAT(i64(even + 100), ElementsAre(100, 102, 104, 106));
  EXPECT_THAT(f32(sqrt(even.to(kFloat32))), ElementsAre(0.f, FloatEq(std::sqrt(2.f)), 2.f, FloatEq(std::sqrt(6.f))));
  Tensor c = tensor({true, false, true, false});
  EXPECT_THAT(i64(where(c, even, odd)), ElementsAre(0, 3, 4, 7));
}

TEST(Elementwise, LargeInputsTakeTheParallelPaths) {
  const int64_t n = 1 << 18;
  Tensor a = ones({n}), b = full({n}, 2.f);
  Tensor s = a + b;
  std::vector<float> v = f32(s);
  EXPECT_EQ(v.front(), 3.f);
  EXPECT_EQ(v[n / 2], 3.f);
  EXPECT_EQ(v.back(), 3.f);
  Tensor big = ones({512, 512});
  Tensor col = full({512, 1}, 4.f);
  std::vector<float> w = f32(big.t() * col);
  EXPECT_EQ(w.front(), 4.f);
  EXPECT_EQ(w.back(), 4.f);
  EXPECT_EQ(f32(a * 0.5).back(), 0.5f);
}

// ---- in place

TEST(Elementwise, InPlaceOnARowViewWritesThroughToTheBase) {
  Tensor m = zeros({2, 3});
  Tensor row = m.select(0, 1);
  row.add_(tensor({1.f, 2.f, 3.f}));
  row.mul_(2);
  EXPECT_THAT(f32(m), ElementsAre(0, 0, 0, 2, 4, 6));
}

TEST(Elementwise, InPlaceOnAColumnViewWritesThroughToTheBase) {
  Tensor m = tensor({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Tensor col = m.select(1, 0);  // stride 2
  ASSERT_FALSE(col.is_contiguous());
  col.sub_(1);
  col.div_(tensor({1.f, 2.f, 4.f}));
  EXPECT_THAT(f32(m), ElementsAre(0, 2, 1, 4, 1, 6));
  Tensor t = m.t();
  t.add_(10);
  EXPECT_THAT(f32(m), ElementsAre(10, 12, 11, 14, 11, 16));
}

TEST(Elementwise, InPlaceBroadcastsTheOtherOperand) {
  Tensor m = ones({2, 3});
  m.add_(tensor({1.f, 2.f, 3.f}), 2);
  EXPECT_THAT(f32(m), ElementsAre(3, 5, 7, 3, 5, 7));
  m.mul_(tensor({{1.f}, {0.f}}));
  EXPECT_THAT(f32(m), ElementsAre(3, 5, 7, 0, 0, 0));
  m.add_(m);
  EXPECT_THAT(f32(m), ElementsAre(6, 10, 14, 0, 0, 0));
}

TEST(Elementwise, InPlaceCastsResultsDownWhenTorchAllows) {
  Tensor f = tensor({1.f, 2.f});
  f.add_(tensor({0.5, 0.25}, dtype(kFloat64)));
  EXPECT_EQ(f.dtype(), kFloat32);
  EXPECT_THAT(f32(f), ElementsAre(1.5f, 2.25f));
  Tensor i = tensor({1, 2}, dtype(kInt32));
  i.add_(tensor({10, 20}));  // int64 result into int32 self
  EXPECT_EQ(i.dtype(), kInt32);
  EXPECT_THAT(i64(i), ElementsAre(11, 22));
  Tensor h = tensor({1.f}, dtype(kFloat16));
  h.mul_(2.5);
  EXPECT_THAT(f32(h), ElementsAre(2.5f));
}

TEST(Elementwise, InPlaceRejectsAResultSelfCannotHold) {
  Tensor i = tensor({1, 2});
  expect_error([&] { i.add_(2.5); },
               {"[Tensor::add_]", "result type Float can't be cast to the desired output type Long"});
  expect_error([&] { i.div_(tensor({2, 2})); },
               {"[Tensor::div_]", "result type Float can't be cast to the desired output type Long"});
  expect_error([&] { i.mul_(tensor({1.f, 1.f})); }, {"[Tensor::mul_]", "Float", "Long"});
  Tensor b = tensor({true});
  expect_error([&] { b.add_(1); },
               {"[Tensor::add_]", "result type Long can't be cast to the desired output type Bool"});
  EXPECT_THAT(i64(i), ElementsAre(1, 2));  // untouched
}

TEST(Elementwise, InPlaceRejectsAShapeSelfCannotHold) {
  Tensor a = ones({3});
  expect_error([&] { a.add_(ones({2, 3})); },
               {"[Tensor::add_]", "output with shape [3] doesn't match the broadcast shape [2, 3]"});
}

TEST(Elementwise, InPlaceRejectsOverlappingMemory) {
  Tensor e = ones({1}).expand({4});
  expect_error([&] { e.add_(1); },
               {"[Tensor::add_]", "more than one element of the written-to tensor refers to a "
                                  "single memory location"});
  Tensor x = arange(5).to(kFloat32);
  Tensor hi = x.narrow(0, 1, 4), lo = x.narrow(0, 0, 4);
  expect_error([&] { hi.add_(lo); },
               {"[Tensor::add_]", "some elements of the input tensor and the written-to tensor "
                                  "refer to a single memory location"});
}

// ---- out variants

TEST(Elementwise, OutVariantsWriteIntoThePreallocatedTensor) {
  Tensor a = tensor({1.f, 2.f}), b = tensor({3.f, 4.f});
  Tensor out = empty({2});
  Tensor& r = add_out(out, a, b, 2);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_THAT(f32(out), ElementsAre(7, 10));
  sub_out(out, a, b);
  EXPECT_THAT(f32(out), ElementsAre(-2, -2));
  mul_out(out, a, b);
  EXPECT_THAT(f32(out), ElementsAre(3, 8));
  div_out(out, a, b);
  EXPECT_THAT(f32(out), ElementsAre(FloatEq(1.f / 3), 0.5f));
  add_out(out, out, b);
  EXPECT_THAT(f32(out), ElementsAre(FloatEq(1.f / 3 + 3), 4.5f));
}

TEST(Elementwise, OutVariantsBroadcastAndCast) {
  Tensor out = empty({2, 2}, dtype(kFloat64));
  add_out(out, tensor({{1}, {2}}), tensor({10, 20}));  // int64 result into float64 out
  EXPECT_THAT(out.tolist<double>(), ElementsAre(11, 21, 12, 22));
  Tensor strided = zeros({2, 4}).slice(1, 0, std::nullopt, 2);  // (2, 2), stride 4/2
  mul_out(strided, tensor({{1.f, 2.f}, {3.f, 4.f}}), tensor(2.f));
  EXPECT_THAT(f32(strided), ElementsAre(2, 4, 6, 8));
}

TEST(Elementwise, OutVariantsRejectAWrongShapeOrDtype) {
  Tensor out = empty({3});
  expect_error([&] { add_out(out, ones({2, 3}), ones({3})); },
               {"[add_out]", "[3]", "[2, 3]", "never resized"});
  Tensor iout = empty({2}, dtype(kInt64));
  expect_error([&] { div_out(iout, tensor({1, 2}), tensor({2, 2})); },
               {"[div_out]", "result type Float can't be cast to the desired output type Long"});
}

// ---- argument errors

TEST(Elementwise, BoolSubtractionRaisesTorchErrors) {
  expect_error([] { tensor({true}) - tensor({false}); },
               {"[sub]", "Subtraction, the `-` operator, with two bool tensors is not supported"});
  expect_error([] { tensor({1}) - tensor({true}); },
               {"[sub]", "Subtraction, the `-` operator, with a bool tensor is not supported"});
}

TEST(Elementwise, AlphaMustSuitTheResultDtype) {
  expect_error([] { add(tensor({1}), tensor({2}), 0.5); },
               {"[add]", "For integral input tensors, argument alpha must not be a floating point number."});
  expect_error([] { add(tensor({1.f}), tensor({2.f}), true); },
               {"[add]", "Boolean alpha only supported for Boolean results."});
}

TEST(Elementwise, UndefinedOperandsRaise) {
  Tensor undefined;
  expect_error([&] { add(undefined, tensor({1.f})); }, {"[add]", "undefined"});
  expect_error([&] { exp(undefined); }, {"[exp]", "undefined"});
}

TEST(Elementwise, ThresholdBackwardComparesWithTheThresholdInTheOperandsDtype) {
  // torch rounds the threshold to the dtype first (threshold.to<scalar_t>()): in bfloat16, 0.1
  // is 0.10009765625, so the input 0.1 (the same bfloat16) is at the threshold and gets 0.
  // torch 1.13: threshold_backward(ones, [0.1, 0.2, -1, nan], 0.1) is [0, 1, 0, 1] for
  // bfloat16 and float32 alike.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Dtype dtype : {kBFloat16, kFloat32}) {
    SCOPED_TRACE(name(dtype));
    const Tensor x = tensor({0.1, 0.2, -1.0, nan}).to(dtype);
    EXPECT_THAT(f32(threshold_backward(ones({4}, dtype), x, 0.1).to(kFloat32)),
                ElementsAre(0.f, 1.f, 0.f, 1.f));
  }
}
