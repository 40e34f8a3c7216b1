#include "ops/type_promotion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/defaults_guard.h"
#include "tide/factories.h"
#include "tide/ops.h"

using namespace tide;
using detail::result_type;
using ::testing::HasSubstr;

namespace {
Tensor vec(Dtype d) { return zeros({2}, dtype(d)); }
Tensor zero_dim(Dtype d) { return zeros({}, dtype(d)); }
}  // namespace

TEST(TypePromotion, SameDtypeIsKept) {
  for (Dtype d : {kBool, kUInt8, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    Tensor a = vec(d), b = vec(d);
    EXPECT_EQ(result_type(a, b), d) << name(d);
  }
}

TEST(TypePromotion, TensorsOfOneClassFollowPromoteTypes) {
  Tensor i64 = vec(kInt64), f32 = vec(kFloat32), i32 = vec(kInt32), u8 = vec(kUInt8);
  Tensor f16 = vec(kFloat16), bf16 = vec(kBFloat16), b = vec(kBool), f64 = vec(kFloat64);
  EXPECT_EQ(result_type(i64, f32), kFloat32);
  EXPECT_EQ(result_type(i32, i64), kInt64);
  EXPECT_EQ(result_type(u8, i32), kInt32);
  EXPECT_EQ(result_type(b, u8), kUInt8);
  EXPECT_EQ(result_type(f16, bf16), kFloat32);
  EXPECT_EQ(result_type(f16, i64), kFloat16);
  EXPECT_EQ(result_type(f32, f64), kFloat64);
}

TEST(TypePromotion, ZeroDimTensorOfSameCategoryDoesNotPromote) {
  Tensor f32 = vec(kFloat32), f64 = zero_dim(kFloat64), i32 = vec(kInt32), i64 = zero_dim(kInt64);
  EXPECT_EQ(result_type(f32, f64), kFloat32);
  EXPECT_EQ(result_type(f64, f32), kFloat32);
  EXPECT_EQ(result_type(i32, i64), kInt32);
  Tensor f16 = vec(kFloat16), f32_0 = zero_dim(kFloat32);
  EXPECT_EQ(result_type(f16, f32_0), kFloat16);
}

TEST(TypePromotion, ZeroDimTensorOfHigherCategoryPromotes) {
  Tensor i64 = vec(kInt64), f64 = zero_dim(kFloat64), b = vec(kBool), i32 = zero_dim(kInt32);
  EXPECT_EQ(result_type(i64, f64), kFloat64);
  EXPECT_EQ(result_type(b, i32), kInt32);
}

TEST(TypePromotion, ZeroDimTensorsAloneFollowPromoteTypes) {
  Tensor i32 = zero_dim(kInt32), i64 = zero_dim(kInt64), f64 = zero_dim(kFloat64);
  EXPECT_EQ(result_type(i32, i64), kInt64);
  EXPECT_EQ(result_type(f64, Scalar(2.5)), kFloat64);
  EXPECT_EQ(result_type(i32, Scalar(2.5)), kFloat32);
}

TEST(TypePromotion, FloatScalarWithIntegerTensorGivesDefaultFloat) {
  Tensor i64 = vec(kInt64), i32 = vec(kInt32), b = vec(kBool);
  EXPECT_EQ(result_type(i64, Scalar(2.5)), kFloat32);
  EXPECT_EQ(result_type(i32, Scalar(2.5)), kFloat32);
  EXPECT_EQ(result_type(b, Scalar(2.5)), kFloat32);
}

TEST(TypePromotion, IntegerScalarWithBoolTensorGivesInt64) {
  Tensor b = vec(kBool);
  EXPECT_EQ(result_type(b, Scalar(1)), kInt64);
  EXPECT_EQ(result_type(b, Scalar(true)), kBool);
}

TEST(TypePromotion, ScalarDoesNotWidenATensorOfItsCategory) {
  Tensor f16 = vec(kFloat16), bf16 = vec(kBFloat16), u8 = vec(kUInt8), i32 = vec(kInt32);
  EXPECT_EQ(result_type(f16, Scalar(2.5)), kFloat16);
  EXPECT_EQ(result_type(bf16, Scalar(2.5)), kBFloat16);
  EXPECT_EQ(result_type(u8, Scalar(1000)), kUInt8);
  EXPECT_EQ(result_type(i32, Scalar(int64_t{1} << 40)), kInt32);
  EXPECT_EQ(result_type(i32, Scalar(true)), kInt32);
}

TEST(TypePromotion, ListFormMatchesPairForms) {
  Tensor i64 = vec(kInt64), f64 = zero_dim(kFloat64), f16 = vec(kFloat16);
  EXPECT_EQ(result_type({&i64, &f64}), kFloat64);
  EXPECT_EQ(result_type({&i64}, {Scalar(1.5)}), kFloat32);
  EXPECT_EQ(result_type({&f16, &f64}, {Scalar(1)}), kFloat16);
  using NoTensors = std::initializer_list<const Tensor*>;
  EXPECT_EQ(result_type(NoTensors{}, {Scalar(1), Scalar(true)}), kInt64);
  EXPECT_EQ(result_type(NoTensors{}, {}), kFloat32);
}

TEST(TypePromotion, StateAccumulatesOperandsOneAtATime) {
  detail::ResultTypeState state;
  Tensor i32 = vec(kInt32);
  detail::update_result_type(state, i32);
  detail::update_result_type(state, Scalar(3));
  EXPECT_EQ(detail::result_type(state), kInt32);
  detail::update_result_type(state, Scalar(0.5));
  EXPECT_EQ(detail::result_type(state), kFloat32);
}

TEST(TypePromotion, UndefinedTensorsAreSkipped) {
  Tensor undefined, i32 = vec(kInt32);
  EXPECT_EQ(result_type({&undefined, &i32}), kInt32);
}

TEST(TypePromotion, CanCastFollowsTorch) {
  EXPECT_TRUE(detail::can_cast(kInt64, kFloat32));
  EXPECT_TRUE(detail::can_cast(kBool, kInt64));
  EXPECT_TRUE(detail::can_cast(kFloat64, kFloat16));
  EXPECT_TRUE(detail::can_cast(kInt64, kUInt8));
  EXPECT_FALSE(detail::can_cast(kFloat32, kInt64));
  EXPECT_FALSE(detail::can_cast(kFloat16, kBool));
  EXPECT_FALSE(detail::can_cast(kInt32, kBool));
}

TEST(TypePromotion, CastCheckUsesTorchWording) {
  try {
    detail::check_can_cast_to_output(kFloat32, kInt64, "Tensor::add_");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[Tensor::add_]"));
    EXPECT_THAT(e.what(), HasSubstr("result type Float can't be cast to the desired output type Long"));
  }
  EXPECT_NO_THROW(detail::check_can_cast_to_output(kInt64, kFloat32, "add_out"));
}

// Note [Default dtype]: a floating Scalar counts as the default dtype, and integer inputs of
// true division and float ops compute in it.
TEST(TypePromotion, FloatScalarsFollowTheDefaultDtype) {
  test::DefaultDtypeGuard f64(kFloat64);
  EXPECT_EQ(result_type(vec(kInt64), Scalar(2.5)), kFloat64);
  EXPECT_EQ(result_type(vec(kBool), Scalar(2.5)), kFloat64);
  EXPECT_EQ(result_type(vec(kFloat32), Scalar(2.5)), kFloat32);  // its own category: kept
  EXPECT_EQ(result_type(vec(kFloat16), Scalar(2.5)), kFloat16);
  detail::ResultTypeState state;
  EXPECT_EQ(result_type(state), kFloat64);  // nothing added: the default dtype
  detail::update_result_type(state, Scalar(2.5));
  EXPECT_EQ(result_type(state), kFloat64);
  Tensor sum = tensor({1, 2}) + 2.5;
  EXPECT_EQ(sum.dtype(), kFloat64);
  EXPECT_EQ(sum.tolist<double>(), (std::vector<double>{3.5, 4.5}));
}

TEST(TypePromotion, IntegerDivisionAndFloatOpsGiveTheDefaultDtype) {
  test::DefaultDtypeGuard f64(kFloat64);
  Tensor q = tensor({1, 2}) / tensor({3, 4});
  EXPECT_EQ(q.dtype(), kFloat64);
  EXPECT_EQ(q.tolist<double>(), (std::vector<double>{1.0 / 3, 0.5}));
  EXPECT_EQ((tensor({1}) / 2).dtype(), kFloat64);
  EXPECT_EQ(exp(tensor({0, 1})).dtype(), kFloat64);
  EXPECT_EQ(sqrt(tensor({true})).dtype(), kFloat64);
}
