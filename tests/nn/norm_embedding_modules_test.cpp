// nn::LayerNorm, nn::GroupNorm and nn::Embedding as modules: parameters and defaults as
// torch.nn's, forward equal to what torch 1.13 computes for the same input, Embedding's
// padding_idx and max_norm renormalization (values from torch 1.13, the same case as
// tests/fixtures/nn_goldens.json), and the constructors' checks.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

Tensor ramp() { return arange(24).to(kFloat32).reshape({2, 4, 3}) / 7; }

TEST(LayerNormModule, ParametersStartAtOneAndZeroAndForwardMatchesTorch) {
  nn::LayerNorm ln({4, 3});
  const auto named = ln.named_parameters();
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0].first, "weight");
  EXPECT_EQ(named[1].first, "bias");
  EXPECT_EQ(ln.weight.sizes(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(values(ln.weight), std::vector<double>(12, 1.0));
  EXPECT_EQ(values(ln.bias), std::vector<double>(12, 0.0));
  // torch.nn.LayerNorm([4, 3])(arange(24).reshape(2, 4, 3) / 7)[0, 0]
  expect_near(values(ln(ramp()).select(0, 0).select(0, 0)),
              {-1.5932223796844482, -1.303545594215393, -1.0138686895370483}, 1e-5);
  ln(ramp()).sum().backward();
  EXPECT_TRUE(ln.weight.grad().defined());
  nn::LayerNorm plain({3}, 1e-5, /*elementwise_affine=*/false);
  EXPECT_TRUE(plain.parameters().empty());
  EXPECT_EQ(values(plain(ramp())), values(layer_norm(ramp(), {3})));
}

TEST(GroupNormModule, ForwardMatchesTorchAndChannelsMustDivide) {
  nn::GroupNorm gn(2, 4);
  EXPECT_EQ(gn.weight.sizes(), (std::vector<int64_t>{4}));
  // torch.nn.GroupNorm(2, 4)(arange(24).reshape(2, 4, 3) / 7)[1, :, 0]
  expect_near(values(gn(ramp()).select(0, 1).select(1, 0)),
              {-1.4637271165847778, 0.292744904756546, -1.4637250900268555, 0.29274654388427734},
              1e-5);
  EXPECT_THAT(error_of([] { nn::GroupNorm(3, 4); }),
              HasSubstr("num_channels must be divisible by num_groups"));
  nn::GroupNorm plain(4, 4, 1e-5, /*affine=*/false);
  EXPECT_TRUE(plain.parameters().empty());
}

TEST(EmbeddingModule, DrawsNormalRowsWithThePaddingRowZeroed) {
  manual_seed(0);
  nn::Embedding emb(1000, 8, /*padding_idx=*/-1);
  EXPECT_EQ(emb.padding_idx, std::optional<int64_t>(999));
  EXPECT_EQ(values(emb.weight.select(0, 999)), std::vector<double>(8, 0.0));
  const std::vector<double> w = values(emb.weight.narrow(0, 0, 999));
  double sum = 0, sum_sq = 0;
  for (double v : w) {
    sum += v;
    sum_sq += v * v;
  }
  const double n = static_cast<double>(w.size()), mean = sum / n;
  EXPECT_NEAR(mean, 0.0, 0.05);  // 7992 draws of N(0, 1): standard error 0.011
  EXPECT_NEAR(sum_sq / n - mean * mean, 1.0, 0.06);
  const Tensor out = emb(tensor({999, 3, 3}));
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{3, 8}));
  out.sum().backward();
  EXPECT_EQ(values(emb.weight.grad().select(0, 999)), std::vector<double>(8, 0.0));
  EXPECT_EQ(values(emb.weight.grad().select(0, 3)), std::vector<double>(8, 2.0));
  EXPECT_THAT(error_of([] { nn::Embedding(5, 3, 5); }),
              HasSubstr("Padding_idx must be within num_embeddings"));
}

Tensor renorm_case(std::optional<double> max_norm, double norm_type, Tensor* out) {
  nn::Embedding emb(5, 3, std::nullopt, max_norm, norm_type);
  {
    NoGradGuard no_grad;
    emb.weight.copy_(arange(15).to(kFloat32).reshape({5, 3}) / 4 - 1);
  }
  *out = emb(tensor({{3, 0}, {3, 4}}));
  return emb.weight;
}

TEST(EmbeddingModule, MaxNormRenormalizesTheRowsLookedUpAsTorch) {
  Tensor out;
  // torch.nn.Embedding(5, 3, max_norm=1.0) with weight arange(15).reshape(5, 3) / 4 - 1,
  // looking up [[3, 0], [3, 4]]: rows 0, 3 and 4 are scaled to norm 1, rows 1 and 2 kept.
  const Tensor weight = renorm_case(1.0, 2.0, &out);
  expect_near(values(weight),
              {-0.7427812814712524, -0.5570859909057617, -0.3713906407356262, -0.25, 0.0, 0.25,
               0.5, 0.75, 1.0, 0.4767313003540039, 0.5720775127410889, 0.6674237847328186,
               0.511101245880127, 0.5749889016151428, 0.6388765573501587},
              1e-6);
  expect_near(values(out.select(0, 0).select(0, 0)),
              {0.4767313003540039, 0.5720775127410889, 0.6674237847328186}, 1e-6);
  // The renormalization is not recorded: the lookup's gradient is the plain one.
  out.sum().backward();
  EXPECT_EQ(values(weight.grad().select(0, 3)), std::vector<double>(3, 2.0));
  // norm_type 1 (max_norm 2.5) and infinity (max_norm 3: nothing exceeds it).
  expect_near(values(renorm_case(2.5, 1.0, &out).select(0, 3)),
              {0.6944444179534912, 0.8333332538604736, 0.9722221493721008}, 1e-6);
  expect_near(values(renorm_case(3.0, std::numeric_limits<double>::infinity(), &out)
                         .select(0, 4)),
              {2.0, 2.25, 2.5}, 0);
}

TEST(NormEmbeddingModules, CloneAndStateDictCarryTheirTensors) {
  nn::LayerNorm ln({3});
  {
    NoGradGuard no_grad;
    ln.weight.fill_(2);
  }
  auto copy = std::dynamic_pointer_cast<nn::LayerNorm>(ln.clone());
  ASSERT_TRUE(copy);
  EXPECT_EQ(values(copy->weight), std::vector<double>(3, 2.0));
  EXPECT_NE(copy->weight.raw_data(), ln.weight.raw_data());
  nn::Embedding emb(4, 2, 0);
  auto state = emb.state_dict();
  ASSERT_EQ(state.count("weight"), 1u);
  auto emb_copy = std::dynamic_pointer_cast<nn::Embedding>(emb.clone());
  EXPECT_EQ(emb_copy->padding_idx, std::optional<int64_t>(0));
  EXPECT_EQ(values(emb_copy->weight), values(emb.weight));
}

}  // namespace
}  // namespace tide
