// randperm, multinomial, normal with tensor parameters, bernoulli and poisson
// (tide/sampling.h) on the cpu and every GPU of the configuration. Their draws are not
// torch's (tide's generator is Philox), so the checks are of the distributions: exact
// properties (a permutation, no zero-weight category, distinct draws without replacement) and
// frequencies over 20000 seeded draws within margins of about five standard deviations.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "device_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/sampling.h"

namespace tide {
namespace {

using test::devices;

/// The share of `draws` (int64, any shape) equal to `value`.
double share(const Tensor& draws, int64_t value) {
  return draws.eq(value).to(kFloat64).mean().item<double>();
}

TEST(Sampling, RandpermIsAPermutationOnEveryDevice) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    manual_seed(7);
    const Tensor p = randperm(1000, tide::device(device));
    EXPECT_EQ(p.device(), device);
    EXPECT_EQ(p.dtype(), kInt64);
    std::vector<int64_t> v = p.cpu().tolist<int64_t>();
    EXPECT_NE(v[0] * 1000 + v[1], 1);  // not the identity's start (a 1-in-10^6 false alarm)
    std::sort(v.begin(), v.end());
    for (int64_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], i);
  }
}

TEST(Sampling, MultinomialWithReplacementFollowsTheWeights) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    manual_seed(11);
    const Tensor w = tensor({0.5, 1.0, 0.0, 3.5}).to(device);  // sums to 5
    const Tensor d = multinomial(w, 20000, /*replacement=*/true);
    EXPECT_EQ(d.sizes(), (std::vector<int64_t>{20000}));
    EXPECT_NEAR(share(d, 0), 0.1, 0.011);
    EXPECT_NEAR(share(d, 1), 0.2, 0.015);
    EXPECT_EQ(share(d, 2), 0.0);
    EXPECT_NEAR(share(d, 3), 0.7, 0.017);
  }
}

TEST(Sampling, MultinomialWithoutReplacementDrawsDistinctCategoriesPerRow) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    manual_seed(13);
    const Tensor w = tensor({{1.0, 2.0, 0.0, 4.0, 1.0}, {0.0, 1.0, 1.0, 1.0, 0.0}}).to(device);
    for (int round = 0; round < 20; ++round) {
      const Tensor d = multinomial(w, 3).cpu();
      EXPECT_EQ(d.sizes(), (std::vector<int64_t>{2, 3}));
      for (int64_t r = 0; r < 2; ++r) {
        std::vector<int64_t> row = d.select(0, r).tolist<int64_t>();
        std::sort(row.begin(), row.end());
        EXPECT_TRUE(std::adjacent_find(row.begin(), row.end()) == row.end());
        for (int64_t c : row) EXPECT_GT(w.cpu().select(0, r).select(0, c).item<double>(), 0);
      }
    }
    // The heaviest category comes first most often: 4 / 8 of the time.
    const Tensor first = multinomial(w.select(0, 0).unsqueeze(0).expand({20000, 5}).contiguous(), 1);
    EXPECT_NEAR(share(first, 3), 0.5, 0.018);
    EXPECT_THROW(multinomial(w, 4), Error);  // row 1 has three categories of nonzero weight
  }
}

TEST(Sampling, NormalWithTensorParametersHasTheirMomentsAndGradients) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    manual_seed(17);
    const Tensor mean = full({20000}, 3.0, tide::device(device).dtype(kFloat64)).requires_grad_();
    const Tensor std = full({20000}, 2.0, tide::device(device).dtype(kFloat64)).requires_grad_();
    const Tensor x = normal(mean, std);
    EXPECT_NEAR(x.mean().item<double>(), 3.0, 0.07);
    EXPECT_NEAR(x.std().item<double>(), 2.0, 0.05);
    x.sum().backward();
    EXPECT_EQ(mean.grad().min().item<double>(), 1.0);  // d x / d mean = 1
    // d x / d std = (x - mean) / std, the standard normal draw
    const Tensor z = (x.detach() - 3.0) / 2.0;
    EXPECT_LT((std.grad() - z).abs().max().item<double>(), 1e-12);
    EXPECT_EQ(normal(zeros({2, 3}, tide::device(device)), 1.0).sizes(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(normal(0.0, ones({4}, tide::device(device))).sizes(), (std::vector<int64_t>{4}));
    EXPECT_THROW(normal(zeros({2}, tide::device(device)), -1.0), Error);
  }
}

TEST(Sampling, BernoulliAndPoissonFollowTheirParameters) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    manual_seed(19);
    const TensorOptions f64 = tide::device(device).dtype(kFloat64);
    const Tensor p = full({20000}, 0.3, f64);
    const Tensor b = bernoulli(p);
    EXPECT_EQ(b.dtype(), kFloat64);
    EXPECT_NEAR(b.mean().item<double>(), 0.3, 0.017);
    EXPECT_EQ(bernoulli(zeros({100}, f64)).sum().item<double>(), 0.0);
    EXPECT_EQ(bernoulli(ones({100}, f64)).sum().item<double>(), 100.0);
    EXPECT_NEAR(bernoulli(zeros({20000}, f64), 0.8).mean().item<double>(), 0.8, 0.015);
    EXPECT_THROW(bernoulli(full({2}, 1.5, f64)), Error);
    for (double rate : {0.0, 0.5, 4.0}) {
      const Tensor k = poisson(full({20000}, rate, f64));
      EXPECT_NEAR(k.mean().item<double>(), rate, 0.08 + 0.04 * rate) << rate;
      EXPECT_EQ((k - k.round()).abs().max().item<double>(), 0.0);  // whole counts
    }
    EXPECT_THROW(poisson(full({2}, -1.0, f64)), Error);
  }
}

}  // namespace
}  // namespace tide
