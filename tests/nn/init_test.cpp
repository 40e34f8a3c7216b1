// nn::init: torch's gains and fans, the bounds and moments of each distribution (the draws
// are tide's, the distributions torch's), eye_ and dirac_ as torch 1.13 fills them, orthogonal
// rows or columns, and the errors for tensors of the wrong rank.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

struct Moments {
  double lo, hi, mean, std;
};

Moments moments(const Tensor& t) {
  const std::vector<double> v = t.to(kFloat64).contiguous().tolist<double>();
  double sum = 0, sum_sq = 0;
  for (double x : v) {
    sum += x;
    sum_sq += x * x;
  }
  const double n = static_cast<double>(v.size()), mean = sum / n;
  return {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), mean,
          std::sqrt(sum_sq / n - mean * mean)};
}

TEST(Init, GainsAndFansAreTorchs) {
  EXPECT_EQ(nn::init::calculate_gain("conv2d"), 1.0);
  EXPECT_EQ(nn::init::calculate_gain("sigmoid"), 1.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("tanh"), 5.0 / 3);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("relu"), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("leaky_relu"), std::sqrt(2.0 / (1 + 0.0001)));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("leaky_relu", 0.2), std::sqrt(2.0 / 1.04));
  EXPECT_EQ(nn::init::calculate_gain("selu"), 0.75);
  EXPECT_THAT(error_of([] { nn::init::calculate_gain("foo"); }),
              HasSubstr("Unsupported nonlinearity foo"));
  const auto [fan_in, fan_out] = nn::init::calculate_fan_in_and_fan_out(empty({30, 40, 3, 3}));
  EXPECT_EQ(fan_in, 360);
  EXPECT_EQ(fan_out, 270);
  EXPECT_THAT(error_of([] { nn::init::calculate_fan_in_and_fan_out(empty({3})); }),
              HasSubstr("fewer than 2 dimensions"));
}

TEST(Init, DistributionsHaveTorchsBoundsAndMoments) {
  // 10800 draws: sample moments within 5% of the distribution's.
  manual_seed(0);
  Tensor w = empty({30, 40, 3, 3});
  double bound = std::sqrt(6.0 / (360 + 270));
  Moments m = moments(nn::init::xavier_uniform_(w));
  EXPECT_GE(m.lo, -bound);
  EXPECT_LE(m.hi, bound);
  EXPECT_NEAR(m.std, bound / std::sqrt(3.0), 0.05 * bound);
  m = moments(nn::init::xavier_normal_(w, 2.0));
  EXPECT_NEAR(m.std, 2.0 * std::sqrt(2.0 / 630), 0.05 * m.std);
  bound = std::sqrt(2.0 / 1.01) * std::sqrt(3.0 / 270);
  m = moments(nn::init::kaiming_uniform_(w, 0.1, "fan_out"));
  EXPECT_GE(m.lo, -bound);
  EXPECT_LE(m.hi, bound);
  EXPECT_NEAR(m.std, bound / std::sqrt(3.0), 0.05 * bound);
  m = moments(nn::init::kaiming_normal_(w, 0.0, "fan_in", "relu"));
  EXPECT_NEAR(m.std, std::sqrt(2.0 / 360), 0.05 * m.std);
  EXPECT_THAT(error_of([&] { nn::init::kaiming_uniform_(w, 0.0, "x"); }),
              HasSubstr("Mode x not supported, please use one of ['fan_in', 'fan_out']"));
  // N(1, 2^2) on [0, 3]: mean 1.41326, standard deviation 0.83132 (closed form)
  m = moments(nn::init::trunc_normal_(w, 1.0, 2.0, 0.0, 3.0));
  EXPECT_GE(m.lo, 0.0);
  EXPECT_LE(m.hi, 3.0);
  EXPECT_NEAR(m.mean, 1.41326, 0.03);
  EXPECT_NEAR(m.std, 0.83132, 0.03);
  m = moments(nn::init::uniform_(w, -0.5, 2.0));
  EXPECT_GE(m.lo, -0.5);
  EXPECT_LE(m.hi, 2.0);
  m = moments(nn::init::normal_(w, 3.0, 0.5));
  EXPECT_NEAR(m.mean, 3.0, 0.05);
  EXPECT_NEAR(m.std, 0.5, 0.025);
  m = moments(nn::init::constant_(w, 0.25));
  EXPECT_EQ(m.lo, 0.25);
  EXPECT_EQ(m.hi, 0.25);
  EXPECT_EQ(moments(nn::init::ones_(w)).lo, 1.0);
  EXPECT_EQ(moments(nn::init::zeros_(w)).hi, 0.0);
}

TEST(Init, EyeAndDiracFillAsTorch) {
  Tensor e = empty({2, 3});
  EXPECT_EQ(nn::init::eye_(e).tolist<float>(), (std::vector<float>{1, 0, 0, 0, 1, 0}));
  // torch.nn.init.dirac_(torch.empty(4, 2, 3), groups=2)
  Tensor d = empty({4, 2, 3});
  EXPECT_EQ(nn::init::dirac_(d, 2).tolist<float>(),
            (std::vector<float>{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,
                                0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}));
  EXPECT_THAT(error_of([] {
                Tensor t = empty({3, 3, 3});
                nn::init::eye_(t);
              }),
              HasSubstr("Only tensors with 2 dimensions are supported"));
  EXPECT_THAT(error_of([] {
                Tensor t = empty({3, 3});
                nn::init::dirac_(t);
              }),
              HasSubstr("Only tensors with 3, 4, or 5 dimensions are supported"));
}

TEST(Init, OrthogonalGivesOrthonormalRowsOrColumnsTimesGain) {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{3, 5}, std::vector<int64_t>{5, 3}, std::vector<int64_t>{4, 2, 3}}) {
    Tensor w = empty(shape);
    nn::init::orthogonal_(w, 2.0);
    const Tensor flat = w.reshape({shape[0], -1}).to(kFloat64) / 2.0;
    const bool wide = flat.size(0) <= flat.size(1);
    const Tensor gram = wide ? flat.matmul(flat.t()) : flat.t().matmul(flat);
    const std::vector<double> g = gram.contiguous().tolist<double>();
    const int64_t n = gram.size(0);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(g[i * n + j], i == j ? 1.0 : 0.0, 1e-5);
    }
  }
}

TEST(Init, LeavesAutogradOutOfIt) {
  nn::Linear fc(4, 3);
  nn::init::kaiming_uniform_(fc.weight, std::sqrt(5.0));
  nn::init::zeros_(fc.bias);
  EXPECT_TRUE(fc.weight.is_leaf());
  EXPECT_TRUE(fc.weight.requires_grad());
  EXPECT_EQ(fc.bias.tolist<float>(), (std::vector<float>{0, 0, 0}));
}

}  // namespace
}  // namespace tide
