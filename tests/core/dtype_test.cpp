#include "tide/dtype.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tide/scalar.h"

using namespace tide;

TEST(Dtype, NamesAndSizesMatchTorch) {
  EXPECT_STREQ(name(kFloat32), "float32");
  EXPECT_STREQ(name(kInt64), "int64");
  EXPECT_STREQ(name(kBFloat16), "bfloat16");
  EXPECT_STREQ(name(kBool), "bool");
  EXPECT_EQ(element_size(kFloat16), 2u);
  EXPECT_EQ(element_size(kFloat64), 8u);
  EXPECT_EQ(element_size(kUInt8), 1u);
  EXPECT_EQ(element_size(kInt32), 4u);
}

TEST(Dtype, PromotionFollowsTorchTable) {
  EXPECT_EQ(promote_types(kInt64, kFloat32), kFloat32);
  EXPECT_EQ(promote_types(kInt32, kInt64), kInt64);
  EXPECT_EQ(promote_types(kBool, kUInt8), kUInt8);
  EXPECT_EQ(promote_types(kUInt8, kInt32), kInt32);
  EXPECT_EQ(promote_types(kFloat16, kBFloat16), kFloat32);
  EXPECT_EQ(promote_types(kFloat16, kInt64), kFloat16);
  EXPECT_EQ(promote_types(kBFloat16, kFloat64), kFloat64);
  EXPECT_EQ(promote_types(kFloat32, kFloat16), kFloat32);
  for (int a = 0; a < kNumDtypes; ++a) {
    for (int b = 0; b < kNumDtypes; ++b) {
      EXPECT_EQ(promote_types(Dtype(a), Dtype(b)), promote_types(Dtype(b), Dtype(a)))
          << "promotion must be symmetric for " << Dtype(a) << ", " << Dtype(b);
    }
  }
}

TEST(Dtype, DispatchCallsTheMatchingType) {
  EXPECT_EQ(dispatch_dtype(kInt32, [](auto tag) { return dtype_v<typename decltype(tag)::type>; }), kInt32);
  EXPECT_EQ(dispatch_dtype(kBFloat16, [](auto tag) { return sizeof(typename decltype(tag)::type); }), 2u);
}

TEST(Half, RoundTripsRepresentableValuesExactly) {
  for (float v : {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f, 0.333251953125f}) {
    EXPECT_EQ(static_cast<float>(Half(v)), v) << v;
  }
}

TEST(Half, RoundsToNearestEvenAndSaturatesToInf) {
  EXPECT_EQ(Half(1.0f + 1.0f / 2048).x, Half(1.0f).x);               // tie → even
  EXPECT_EQ(Half(1.0f + 3.0f / 2048).x, Half(1.0f + 2.0f / 1024).x); // tie → even (up)
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(70000.0f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(Half(1e-9f).x, 0);
  EXPECT_EQ(Half(3.0e-8f).x, 1);  // just above half the smallest subnormal rounds up
  EXPECT_EQ(Half(1.0f).x, 0x3c00);
  EXPECT_EQ(Half(-2.0f).x, 0xc000);
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(BFloat16(1.0f).x, 0x3f80);
  EXPECT_EQ(static_cast<float>(BFloat16(3.140625f)), 3.140625f);
  EXPECT_EQ(static_cast<float>(BFloat16(1.00390625f)), 1.0f);  // tie → even
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Scalar, KeepsKindAndConverts) {
  EXPECT_TRUE(Scalar(true).is_bool());
  EXPECT_TRUE(Scalar(3).is_integral());
  EXPECT_TRUE(Scalar(3.5).is_floating_point());
  EXPECT_EQ(Scalar(3.7).to<int64_t>(), 3);
  EXPECT_EQ(Scalar(2).to<float>(), 2.0f);
  EXPECT_EQ(Scalar(2.5).default_dtype(), kFloat32);
  EXPECT_EQ(Scalar(int64_t{2}).default_dtype(), kInt64);
  EXPECT_EQ(Scalar(false).default_dtype(), kBool);
  EXPECT_EQ(static_cast<float>(Scalar(1.5).to<Half>()), 1.5f);
}
