#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/matmul_precision.h"
#include "tide/error.h"
#include "tide/ops.h"

using namespace tide;
using ::testing::HasSubstr;

namespace {

/// Restores the default ("highest", as torch) however the test ends.
struct ResetPrecision {
  ~ResetPrecision() { set_float32_matmul_precision("highest"); }
};

}  // namespace

TEST(Float32MatmulPrecision, DefaultsToHighestSoFloat32ProductsAvoidTf32) {
  EXPECT_EQ(get_float32_matmul_precision(), "highest");
  EXPECT_FALSE(detail::float32_matmul_allows_tf32());
}

TEST(Float32MatmulPrecision, ReadsBackEveryValueItAccepts) {
  ResetPrecision reset;
  set_float32_matmul_precision("high");
  EXPECT_EQ(get_float32_matmul_precision(), "high");
  EXPECT_TRUE(detail::float32_matmul_allows_tf32());
  set_float32_matmul_precision("medium");
  EXPECT_EQ(get_float32_matmul_precision(), "medium");
  EXPECT_TRUE(detail::float32_matmul_allows_tf32());
  set_float32_matmul_precision("highest");
  EXPECT_EQ(get_float32_matmul_precision(), "highest");
  EXPECT_FALSE(detail::float32_matmul_allows_tf32());
}

TEST(Float32MatmulPrecision, RejectsAnUnknownValueAndKeepsTheSetting) {
  ResetPrecision reset;
  set_float32_matmul_precision("high");
  EXPECT_THAT([] { set_float32_matmul_precision("fast"); },
              ::testing::ThrowsMessage<Error>(HasSubstr(
                  "[set_float32_matmul_precision] fast is not one of 'highest', 'high', or 'medium'")));
  EXPECT_THROW(set_float32_matmul_precision("HIGH"), Error);
  EXPECT_EQ(get_float32_matmul_precision(), "high");
}
