// The layers and losses on cpu: Linear (torch's initialization, determinism under
// manual_seed, forward), ReLU, Dropout (training and eval), Flatten, CrossEntropyLoss, MSELoss,
// and a few steps of SGD by hand through autograd.

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

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

TEST(Linear, InitializationIsUniformWithinOneOverSqrtFanIn) {
  manual_seed(0);
  nn::Linear fc(400, 300);
  EXPECT_EQ(fc.weight.sizes(), (std::vector<int64_t>{300, 400}));
  EXPECT_EQ(fc.bias.sizes(), (std::vector<int64_t>{300}));
  EXPECT_EQ(fc.weight.dtype(), kFloat32);
  const double bound = 1.0 / std::sqrt(400.0);  // 0.05
  // U(-b, b): mean 0, variance b^2/3; 120000 draws pin both within a few standard errors.
  const std::vector<double> w = values(fc.weight);
  double sum = 0, sum_sq = 0, lo = 1, hi = -1;
  for (double v : w) {
    sum += v;
    sum_sq += v * v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double n = static_cast<double>(w.size());
  const double mean = sum / n, var = sum_sq / n - mean * mean;
  EXPECT_LE(hi, bound);
  EXPECT_GE(lo, -bound);
  EXPECT_GT(hi, 0.99 * bound);  // the range is used up to the edges
  EXPECT_LT(lo, -0.99 * bound);
  EXPECT_NEAR(mean, 0.0, 5 * bound / std::sqrt(3 * n));
  EXPECT_NEAR(var, bound * bound / 3, 0.02 * bound * bound / 3);
  const std::vector<double> b = values(fc.bias);
  for (double v : b) EXPECT_LE(std::abs(v), bound);
  EXPECT_GT(*std::max_element(b.begin(), b.end()), 0.5 * bound);
  EXPECT_LT(*std::min_element(b.begin(), b.end()), -0.5 * bound);
}

TEST(Linear, ManualSeedFixesTheInitialization) {
  manual_seed(42);
  nn::Linear a(5, 3);
  nn::Linear a2(5, 3);
  manual_seed(42);
  nn::Linear b(5, 3);
  EXPECT_EQ(values(a.weight), values(b.weight));
  EXPECT_EQ(values(a.bias), values(b.bias));
  EXPECT_NE(values(a.weight), values(a2.weight));
  // The weight is drawn first, then the bias, from the same generator (torch's order).
  manual_seed(42);
  const Tensor w = empty({3, 5}).uniform_(-1 / std::sqrt(5.0), 1 / std::sqrt(5.0));
  EXPECT_EQ(values(a.weight), values(w));
  EXPECT_TRUE(a.weight.requires_grad());
  EXPECT_TRUE(a.weight.is_leaf());
  EXPECT_EQ(a.weight.grad_fn(), nullptr);
}

TEST(Linear, ForwardIsXTimesWeightTransposedPlusBias) {
  nn::Linear fc(3, 2);
  {
    NoGradGuard no_grad;
    fc.weight.copy_(tensor({{1.0, 2.0, 3.0}, {-1.0, 0.0, 1.0}}));
    fc.bias.copy_(tensor({0.5, -0.5}));
  }
  const Tensor x = tensor({{1.0, 1.0, 1.0}, {0.0, 1.0, 2.0}});
  EXPECT_EQ(values(fc(x)), (std::vector<double>{6.5, -0.5, 8.5, 1.5}));
  // Any leading dims, and a single sample.
  EXPECT_EQ(fc(x.view({2, 1, 3})).sizes(), (std::vector<int64_t>{2, 1, 2}));
  EXPECT_EQ(values(fc(x.view({2, 1, 3}))), (std::vector<double>{6.5, -0.5, 8.5, 1.5}));
  EXPECT_EQ(values(fc(tensor({1.0, 1.0, 1.0}))), (std::vector<double>{6.5, -0.5}));
  nn::Linear no_bias(3, 2, false);
  EXPECT_FALSE(no_bias.bias.defined());
  EXPECT_EQ(no_bias.parameters().size(), 1u);
  EXPECT_EQ(no_bias(x).sizes(), (std::vector<int64_t>{2, 2}));
}

TEST(Linear, BadSizesAndInputsSayWhatWasExpected) {
  EXPECT_THAT(error_of([] { nn::Linear(-1, 2); }),
              HasSubstr("[nn::Linear] expected non-negative in_features and out_features, got "
                        "in_features=-1 and out_features=2"));
  nn::Linear fc(784, 10);
  EXPECT_THAT(error_of([&] { fc(ones({64, 1, 28, 28})); }),
              HasSubstr("[nn::Linear] expected an input whose last dimension is in_features=784, "
                        "got shape [64, 1, 28, 28]"));
  EXPECT_THAT(error_of([&] { fc(Tensor()); }), HasSubstr("[nn::Linear] expected a defined input"));
}

TEST(ReLUAndFlatten, ComputeAsTorch) {
  nn::ReLU relu;
  EXPECT_EQ(values(relu(tensor({-1.0, 0.0, 2.0}))), (std::vector<double>{0, 0, 2}));
  nn::Flatten flatten;
  EXPECT_EQ(flatten(ones({2, 3, 4, 5})).sizes(), (std::vector<int64_t>{2, 60}));
  EXPECT_EQ(nn::Flatten(0)(ones({2, 3, 4})).sizes(), (std::vector<int64_t>{24}));
  EXPECT_EQ(nn::Flatten(1, 2)(ones({2, 3, 4, 5})).sizes(), (std::vector<int64_t>{2, 12, 5}));
}

TEST(Dropout, ZeroesAboutPAndScalesTheRestInTraining) {
  manual_seed(5);
  nn::Dropout drop(0.3);
  const Tensor y = drop(ones({100000}));
  int64_t zeros = 0;
  for (double v : values(y)) {
    if (v == 0.0) {
      ++zeros;
    } else {
      EXPECT_FLOAT_EQ(v, 1.0 / 0.7);
    }
  }
  // Binomial(1e5, 0.3): standard deviation ~145.
  EXPECT_NEAR(static_cast<double>(zeros), 30000.0, 750.0);
}

TEST(Dropout, IsTheIdentityInEvalAndDeterministicUnderManualSeed) {
  nn::Dropout drop;
  EXPECT_DOUBLE_EQ(drop.p, 0.5);
  const Tensor x = randn({64});
  drop.eval();
  EXPECT_TRUE(drop(x).is_same(x));
  drop.train();
  manual_seed(9);
  const std::vector<double> first = values(drop(x));
  manual_seed(9);
  EXPECT_EQ(values(drop(x)), first);
  EXPECT_NE(values(drop(x)), first);  // the generator moved on
  // The mask is rand < 1 - p, scaled by 1/(1-p): the same Philox draw reproduces it.
  manual_seed(9);
  const Tensor keep = lt(rand({64}), 0.5).to(kFloat32);
  EXPECT_EQ(first, values(x * (keep / 0.5)));
}

TEST(Dropout, EdgeProbabilitiesAndGradient) {
  const Tensor x = randn({16});
  EXPECT_EQ(values(nn::Dropout(0.0)(x)), values(x));
  EXPECT_EQ(values(nn::Dropout(1.0)(x)), std::vector<double>(16, 0.0));
  EXPECT_THAT(error_of([] { nn::Dropout(1.5); }),
              HasSubstr("[nn::Dropout] dropout probability has to be between 0 and 1, but got 1.5"));
  EXPECT_THAT(error_of([] { nn::Dropout(-0.1); }), HasSubstr("but got -0.1"));
  EXPECT_THAT(error_of([&] { dropout(x, 2.0); }), HasSubstr("[dropout] dropout probability"));
  EXPECT_THAT(error_of([&] { dropout(ones({2}, dtype(kInt64)), 0.5); }),
              HasSubstr("[dropout] expected a floating-point input"));
  // The gradient is the scaled mask.
  const Tensor leaf = ones({1000}).requires_grad_();
  const Tensor y = dropout(leaf, 0.5);
  y.sum().backward();
  EXPECT_EQ(values(leaf.grad()), values(y.detach()));
}

TEST(Losses, Issue26LossModulesForwardTheirArguments) {
  const Tensor x = tensor({{0.5, -1.0, 2.0}, {1.5, 0.25, -0.75}});
  const Tensor y = tensor({{0.0, -0.5, 1.0}, {3.0, 0.25, 0.0}});
  const Tensor labels = tensor({{0.0, 1.0, 1.0}, {1.0, 0.0, 1.0}});
  const Tensor w = tensor({1.0, 2.0, 0.5});
  const Tensor sign = tensor({1.0, -1.0});
  EXPECT_EQ(values(nn::CrossEntropyLoss({}, Reduction::Mean, -100, 0.2)(x, tensor({2, 0}))),
            values(cross_entropy(x, tensor({2, 0}), {}, Reduction::Mean, -100, 0.2)));
  EXPECT_EQ(values(nn::L1Loss(Reduction::Sum)(x, y)), values(l1_loss(x, y, Reduction::Sum)));
  EXPECT_EQ(values(nn::SmoothL1Loss(Reduction::None, 0.5)(x, y)),
            values(smooth_l1_loss(x, y, Reduction::None, 0.5)));
  EXPECT_EQ(values(nn::HuberLoss(Reduction::Mean, 0.5)(x, y)), values(huber_loss(x, y, Reduction::Mean, 0.5)));
  nn::BCEWithLogitsLoss bce_logits({}, Reduction::Mean, w);
  EXPECT_EQ(bce_logits.named_buffers().size(), 1u);
  EXPECT_EQ(bce_logits.named_buffers()[0].first, "pos_weight");
  EXPECT_EQ(values(bce_logits(x, labels)),
            values(binary_cross_entropy_with_logits(x, labels, {}, w)));
  EXPECT_EQ(values(nn::BCELoss(w)(sigmoid(x), labels)), values(binary_cross_entropy(sigmoid(x), labels, w)));
  EXPECT_EQ(values(nn::KLDivLoss(Reduction::Sum, true)(x, y)), values(kl_div(x, y, Reduction::Sum, true)));
  EXPECT_EQ(values(nn::MarginRankingLoss(0.1)(x[0], x[1], tensor({1.0, -1.0, 1.0}))),
            values(margin_ranking_loss(x[0], x[1], tensor({1.0, -1.0, 1.0}), 0.1)));
  EXPECT_EQ(values(nn::CosineEmbeddingLoss(0.2, Reduction::None)(x, y, sign)),
            values(cosine_embedding_loss(x, y, sign, 0.2, Reduction::None)));
  EXPECT_THAT(error_of([&] { nn::L1Loss().forward(x); }),
              HasSubstr("a loss takes (input, target), got only an input"));
}

TEST(Activations, ModulesForwardTheirArgumentsAndPReLULearnsItsSlopes) {
  const Tensor x = tensor({{0.5, -1.0, 2.0}, {1.5, 0.25, -0.75}});
  EXPECT_EQ(values(nn::GELU("tanh")(x)), values(gelu(x, "tanh")));
  EXPECT_EQ(values(nn::GELU()(x)), values(gelu(x)));
  EXPECT_EQ(values(nn::SiLU()(x)), values(silu(x)));
  EXPECT_EQ(values(nn::Mish()(x)), values(mish(x)));
  EXPECT_EQ(values(nn::Tanh()(x)), values(tanh(x)));
  EXPECT_EQ(values(nn::Sigmoid()(x)), values(sigmoid(x)));
  EXPECT_EQ(values(nn::Softplus(2.0, 1.0)(x)), values(softplus(x, 2.0, 1.0)));
  EXPECT_EQ(values(nn::LeakyReLU(0.1)(x)), values(leaky_relu(x, 0.1)));
  EXPECT_EQ(values(nn::ELU(0.5)(x)), values(elu(x, 0.5)));
  EXPECT_EQ(values(nn::Hardtanh(-0.5, 0.5)(x)), values(hardtanh(x, -0.5, 0.5)));
  nn::PReLU prelu(3);
  ASSERT_EQ(prelu.parameters().size(), 1u);
  EXPECT_EQ(values(prelu.weight), (std::vector<double>{0.25, 0.25, 0.25}));
  const Tensor xf = x.to(kFloat32);
  prelu(xf).sum().backward();
  EXPECT_EQ(values(prelu.weight.grad()), (std::vector<double>{0.0, -1.0, -0.75}));
  EXPECT_THAT(error_of([] { nn::Hardtanh(1.0, -1.0); }),
              HasSubstr("[nn::Hardtanh] expected max_val > min_val"));
}

TEST(Losses, CrossEntropyLossUsesItsWeightReductionAndIgnoreIndex) {
  const Tensor logits = tensor({{1.0, 2.0, 0.5}, {0.1, 0.2, 3.0}, {2.0, 2.0, 2.0}});
  const Tensor target = tensor({1, 2, 0});
  const Tensor weight = tensor({0.5, 2.0, 1.0});
  EXPECT_EQ(values(nn::CrossEntropyLoss()(logits, target)), values(cross_entropy(logits, target)));
  nn::CrossEntropyLoss weighted(weight, Reduction::Sum, 2);
  EXPECT_EQ(values(weighted(logits, target)),
            values(cross_entropy(logits, target, weight, Reduction::Sum, 2)));
  EXPECT_EQ(weighted.named_buffers().size(), 1u);
  EXPECT_EQ(weighted.named_buffers()[0].first, "weight");
  EXPECT_TRUE(weighted.named_buffers()[0].second.is_same(weighted.weight));
  EXPECT_FALSE(weighted.weight.is_same(weight));  // its own handle on the caller's storage
  EXPECT_EQ(weighted.weight.raw_data(), weight.raw_data());
  EXPECT_TRUE(weighted.parameters().empty());
  EXPECT_TRUE(nn::CrossEntropyLoss().buffers().empty());
  EXPECT_EQ(values(nn::CrossEntropyLoss({}, Reduction::None)(logits, target)),
            values(cross_entropy(logits, target, {}, Reduction::None)));
  EXPECT_THAT(error_of([] { nn::CrossEntropyLoss(ones({2, 2})); }),
              HasSubstr("[nn::CrossEntropyLoss] expected weight to be a 1D floating-point tensor"));
}

TEST(Losses, MSELossReducesAsTorchAndDifferentiates) {
  const Tensor input = tensor({1.0, 2.0, 4.0}).requires_grad_();
  const Tensor target = tensor({0.0, 2.0, 1.0});
  EXPECT_FLOAT_EQ(nn::MSELoss()(input, target).item<float>(), 10.0f / 3);
  EXPECT_EQ(values(nn::MSELoss(Reduction::Sum)(input, target)), (std::vector<double>{10.0}));
  EXPECT_EQ(values(nn::MSELoss(Reduction::None)(input, target)), (std::vector<double>{1, 0, 9}));
  nn::MSELoss()(input, target).backward();
  // d/dx mean((x - t)^2) = 2 (x - t) / n
  const std::vector<double> g = values(input.grad());
  EXPECT_NEAR(g[0], 2.0 / 3, 1e-7);
  EXPECT_EQ(g[1], 0.0);
  EXPECT_NEAR(g[2], 2.0, 1e-7);
  // Broadcasting, as torch.
  EXPECT_EQ(values(mse_loss(ones({2, 3}), zeros({3}), Reduction::Sum)), (std::vector<double>{6}));
  EXPECT_THAT(error_of([] { mse_loss(ones({2}), ones({2}, dtype(kInt64))); }),
              HasSubstr("[mse_loss] expected floating-point input and target"));
}

/// Parameters after `steps` of plain SGD by hand (p -= lr * grad under NoGradGuard).
std::vector<Tensor> train_by_hand(nn::Module& net, nn::CrossEntropyLoss& criterion,
                                  const Tensor& x, const Tensor& y, int steps, double lr) {
  std::vector<double> losses;
  for (int i = 0; i < steps; ++i) {
    net.zero_grad();
    const Tensor loss = criterion(net(x), y);
    losses.push_back(loss.item<float>());
    loss.backward();
    NoGradGuard no_grad;
    for (const Tensor& p : net.parameters()) p.set_data(p.sub(p.grad(), lr));
  }
  EXPECT_LT(losses.back(), losses.front());
  std::vector<Tensor> out;
  for (const Tensor& p : net.parameters()) out.push_back(p.detach().clone());
  return out;
}

TEST(Training, SgdByHandLowersTheLossAndKeepsParametersLeaves) {
  manual_seed(0);
  nn::Sequential net(nn::Flatten(), nn::Linear(6, 8), nn::ReLU(), nn::Linear(8, 3));
  nn::CrossEntropyLoss criterion(tensor({1.0, 1.0, 2.0}));
  const Tensor x = randn({10, 2, 3});
  const Tensor y = tensor({0, 1, 2, 0, 1, 2, 0, 1, 2, 2});
  const Tensor first_weight = net.at<nn::Linear>(1).weight;
  const auto after = train_by_hand(net, criterion, x, y, 20, 0.5);
  EXPECT_TRUE(net.parameters()[0].is_same(first_weight));
  EXPECT_TRUE(first_weight.is_leaf());
  EXPECT_TRUE(first_weight.requires_grad());
  EXPECT_EQ(values(first_weight), values(after[0]));
}

}  // namespace
}  // namespace tide
