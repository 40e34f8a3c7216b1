#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using ::testing::Pointwise;

namespace {

/// softmax of {0, 1, 2}: e^k / (1 + e + e^2).
std::vector<float> softmax012() {
  const double z = 1 + std::exp(1.0) + std::exp(2.0);
  return {static_cast<float>(1 / z), static_cast<float>(std::exp(1.0) / z),
          static_cast<float>(std::exp(2.0) / z)};
}

std::vector<float> log_softmax012() {
  const double lz = std::log(1 + std::exp(1.0) + std::exp(2.0));
  return {static_cast<float>(-lz), static_cast<float>(1 - lz), static_cast<float>(2 - lz)};
}

}  // namespace

TEST(Softmax, OverTheLastDimMatchesHandComputedValues) {
  Tensor a = tensor({{0.f, 1.f, 2.f}, {10.f, 11.f, 12.f}});
  Tensor s = softmax(a, 1);
  EXPECT_THAT(s.sizes(), ElementsAre(2, 3));
  EXPECT_EQ(s.dtype(), kFloat32);
  std::vector<float> expect = softmax012();
  expect.insert(expect.end(), expect.begin(), expect.end());  // shift invariance
  EXPECT_THAT(s.tolist<float>(), Pointwise(FloatNear(1e-6f), expect));
  EXPECT_THAT(a.softmax(-1).tolist<float>(), Pointwise(FloatNear(1e-6f), expect));
}

TEST(Softmax, OverTheFirstDimNormalizesColumns) {
  Tensor a = tensor({{0.f, 5.f}, {1.f, 5.f}, {2.f, 5.f}});
  Tensor s = softmax(a, 0);
  std::vector<float> p = softmax012();
  const float third = 1.f / 3;
  EXPECT_THAT(s.tolist<float>(),
              Pointwise(FloatNear(1e-6f), std::vector<float>{p[0], third, p[1], third, p[2], third}));
}

TEST(Softmax, OverAMiddleDimOfNonContiguousInput) {
  // (2, 3, 2) with the softmax dim running 0, 1, 2 in every slice
  Tensor base = tensor({{{0.f, 1.f, 2.f}, {0.f, 1.f, 2.f}}, {{0.f, 1.f, 2.f}, {0.f, 1.f, 2.f}}});
  Tensor a = base.transpose(1, 2);  // (2, 3, 2), not contiguous
  ASSERT_FALSE(a.is_contiguous());
  Tensor s = softmax(a, 1);
  EXPECT_TRUE(s.is_contiguous());
  std::vector<float> p = softmax012();
  EXPECT_THAT(s.tolist<float>(),
              Pointwise(FloatNear(1e-6f), std::vector<float>{p[0], p[0], p[1], p[1], p[2], p[2],
                                                             p[0], p[0], p[1], p[1], p[2], p[2]}));
}

TEST(Softmax, IsStableForLargeInputs) {
  Tensor s = softmax(tensor({1000.f, 1001.f, 1002.f}), 0);
  EXPECT_THAT(s.tolist<float>(), Pointwise(FloatNear(1e-6f), softmax012()));
  Tensor l = log_softmax(tensor({-1000.f, -999.f, -998.f}), 0);
  EXPECT_THAT(l.tolist<float>(), Pointwise(FloatNear(1e-4f), log_softmax012()));
}

TEST(Softmax, InHalfAndDoubleKeepsTheDtype) {
  Tensor h = softmax(tensor({0.f, 1.f, 2.f}).to(kFloat16), 0);
  EXPECT_EQ(h.dtype(), kFloat16);
  EXPECT_THAT(h.tolist<float>(), Pointwise(FloatNear(1e-3f), softmax012()));
  Tensor d = log_softmax(tensor({0., 1., 2.}, dtype(kFloat64)), 0);
  EXPECT_EQ(d.dtype(), kFloat64);
  EXPECT_NEAR(d.tolist<double>()[2], 2 - std::log(1 + std::exp(1.0) + std::exp(2.0)), 1e-12);
}

TEST(Softmax, OfAZeroDimTensorIsOne) {
  EXPECT_EQ(softmax(tensor(3.f), 0).item<float>(), 1.f);
  EXPECT_EQ(log_softmax(tensor(3.f), -1).item<float>(), 0.f);
  EXPECT_EQ(softmax(tensor(3.f), 0).dim(), 0);
}

TEST(Softmax, OfAnEmptyTensorIsEmpty) {
  EXPECT_THAT(softmax(empty({0, 4}), 1).sizes(), ElementsAre(0, 4));
  EXPECT_THAT(log_softmax(empty({2, 0}), 1).sizes(), ElementsAre(2, 0));
}

TEST(Softmax, PropagatesNaNThroughItsSlice) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> s = softmax(tensor({{1.f, nan}, {1.f, 1.f}}), 1).tolist<float>();
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_TRUE(std::isnan(s[1]));
  EXPECT_EQ(s[2], 0.5f);
  EXPECT_EQ(s[3], 0.5f);
}

TEST(LogSoftmax, MatchesHandComputedValuesOverEachLayout) {
  Tensor rows = tensor({{0.f, 1.f, 2.f}});
  EXPECT_THAT(log_softmax(rows, 1).tolist<float>(), Pointwise(FloatNear(1e-6f), log_softmax012()));
  EXPECT_THAT(rows.t().log_softmax(0).tolist<float>(), Pointwise(FloatNear(1e-6f), log_softmax012()));
}

TEST(LogSoftmax, OfALargeBatchMatchesTheLogOfSoftmax) {
  Tensor a = empty({64, 300});
  float* p = a.data_ptr<float>();
  for (int64_t i = 0; i < a.numel(); ++i) p[i] = static_cast<float>((i * 37) % 101) / 10.f;
  for (int64_t dim : {0, 1}) {
    std::vector<float> s = softmax(a, dim).tolist<float>();
    std::vector<float> l = log_softmax(a, dim).tolist<float>();
    for (size_t i = 0; i < s.size(); ++i) ASSERT_NEAR(std::log(s[i]), l[i], 1e-4) << i;
  }
  std::vector<float> col_sums = sum(softmax(a, 0), 0).tolist<float>();
  for (float v : col_sums) ASSERT_NEAR(v, 1.f, 1e-5);
}

TEST(Softmax, RejectsIntegerInputLikeTorch) {
  std::string e = error_of([] { softmax(tensor({1, 2}), 0); });
  EXPECT_THAT(e, HasSubstr("[softmax] \"softmax_lastdim_kernel_impl\" not implemented for 'Long'"));
  EXPECT_THAT(e, HasSubstr(".to(tide::kFloat32)"));
  EXPECT_THAT(error_of([] { softmax(tensor({{1, 2}}, dtype(kInt32)), 0); }),
              HasSubstr("\"softmax_kernel_impl\" not implemented for 'Int'"));
  EXPECT_THAT(error_of([] { log_softmax(tensor({true}), 0); }),
              HasSubstr("[log_softmax] \"log_softmax_lastdim_kernel_impl\" not implemented for 'Bool'"));
  EXPECT_THAT(error_of([] { softmax(tensor({1.f}), 1); }),
              HasSubstr("[softmax] Dimension out of range"));
}
