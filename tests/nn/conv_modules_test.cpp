// nn::Conv2d, the pooling modules and nn::BatchNorm2d on cpu: shapes and torch's default
// initializations, forward equal to the functional ops, train()/eval(), the BatchNorm buffers
// in state_dict, safetensors and clone, and a small CNN learning. Their steps against torch:
// tests/ops/conv_golden_test.cpp (batch_norm2d_module); on cuda devices: tests/device/nn_test.cpp.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) {
  return t.detach().to(kFloat64).contiguous().tolist<double>();
}

double max_abs(const Tensor& t) { return t.detach().abs().max().item<float>(); }

TEST(Conv2dModule, ShapesAndTorchsDefaultInitialization) {
  manual_seed(1);
  nn::Conv2d conv(nn::Conv2dOptions(4, 6, {3, 2}).stride(2).padding(1).groups(2));
  EXPECT_EQ(conv.weight.sizes(), (std::vector<int64_t>{6, 2, 3, 2}));
  EXPECT_EQ(conv.bias.sizes(), (std::vector<int64_t>{6}));
  // U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = 2 * 3 * 2: the bound is reached closely.
  const double bound = 1 / std::sqrt(12.0);
  EXPECT_LE(max_abs(conv.weight), bound);
  EXPECT_GT(max_abs(conv.weight), 0.8 * bound);
  EXPECT_LE(max_abs(conv.bias), bound);
  const auto names = conv.named_parameters();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].first, "weight");
  EXPECT_EQ(names[1].first, "bias");
  EXPECT_FALSE(nn::Conv2d(3, 4, 3, 1, 0, 1, 1, /*bias=*/false).bias.defined());
}

TEST(Conv2dModule, ForwardIsTheFunctionalConvWithItsOptions) {
  manual_seed(2);
  const Tensor x = randn({2, 4, 7, 6});
  nn::Conv2d conv(4, 6, 3, {2, 1}, 1, 2, 2);
  EXPECT_EQ(values(conv(x)), values(conv2d(x, conv.weight, conv.bias, {2, 1}, 1, 2, 2)));
  nn::Conv2d same(nn::Conv2dOptions(4, 2, 4).padding("same"));
  EXPECT_EQ(same(x).sizes(), (std::vector<int64_t>{2, 2, 7, 6}));
}

TEST(Conv2dModule, RejectsChannelsThatGroupsDoNotDivide) {
  EXPECT_THAT(error_of([] { nn::Conv2d(3, 4, 3, 1, 0, 1, 2); }),
              HasSubstr("in_channels must be divisible by groups"));
}

TEST(PoolingModules, ForwardIsTheFunctionalOp) {
  manual_seed(3);
  const Tensor x = randn({2, 3, 7, 8});
  nn::MaxPool2d max(3, 2, 1);
  EXPECT_EQ(values(max(x)), values(max_pool2d(x, 3, 2, 1)));
  auto [v, i] = max.forward_with_indices(x);
  EXPECT_EQ(values(v), values(max(x)));
  EXPECT_EQ(i.dtype(), kInt64);
  nn::AvgPool2d avg(2, {}, 0, true, false);
  EXPECT_EQ(avg(x).sizes(), (std::vector<int64_t>{2, 3, 4, 4}));
  EXPECT_EQ(values(avg(x)), values(avg_pool2d(x, 2, {}, 0, true, false)));
  nn::AdaptiveAvgPool2d global(1);
  EXPECT_EQ(global(x).sizes(), (std::vector<int64_t>{2, 3, 1, 1}));
  EXPECT_NEAR(global(x)[1][2].item<float>(), x[1][2].mean().item<float>(), 1e-6);
}

TEST(BatchNorm2dModule, StartsAsTorchWithBuffersInStateDict) {
  nn::BatchNorm2d bn(3);
  EXPECT_THAT(values(bn.weight), ElementsAre(1, 1, 1));
  EXPECT_THAT(values(bn.bias), ElementsAre(0, 0, 0));
  EXPECT_THAT(values(bn.running_mean), ElementsAre(0, 0, 0));
  EXPECT_THAT(values(bn.running_var), ElementsAre(1, 1, 1));
  EXPECT_EQ(bn.num_batches_tracked.dtype(), kInt64);
  EXPECT_EQ(bn.num_batches_tracked.dim(), 0);
  const auto state = bn.state_dict();
  for (const char* key : {"weight", "bias", "running_mean", "running_var", "num_batches_tracked"}) {
    EXPECT_TRUE(state.count(key)) << key;
  }
  EXPECT_EQ(bn.buffers().size(), 3u);
  nn::BatchNorm2d plain(3, 1e-5, 0.1, /*affine=*/false, /*track_running_stats=*/false);
  EXPECT_TRUE(plain.state_dict().empty());
}

TEST(BatchNorm2dModule, TrainingUpdatesRunningStatsWithoutRecordingAndEvalUsesThem) {
  manual_seed(4);
  nn::BatchNorm2d bn(2, 1e-5, 0.5);
  const Tensor x = randn({4, 2, 3, 3}) * 2 + 1;
  const Tensor y = bn(x);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(bn.running_mean.requires_grad());
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);
  const std::vector<double> batch_mean = values(x.mean({0, 2, 3}));
  EXPECT_NEAR(values(bn.running_mean)[0], 0.5 * batch_mean[0], 1e-6);
  // Each channel of y has mean 0 and (biased) variance 1 in training.
  EXPECT_NEAR(values(y.mean({0, 2, 3}))[1], 0.0, 1e-5);
  bn.eval();
  const Tensor e = bn(x);
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);  // eval does not count
  const Tensor expected = (x - bn.running_mean.view({1, 2, 1, 1})) /
                          sqrt(bn.running_var.view({1, 2, 1, 1}) + 1e-5);
  const std::vector<double> got = values(e), want = values(expected);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
  EXPECT_THAT(error_of([&] { bn(randn({2, 2, 3})); }), HasSubstr("expected 4D input"));
}

TEST(BatchNorm2dModule, BuffersSurviveSafetensorsAndClone) {
  manual_seed(5);
  nn::BatchNorm2d bn(3);
  bn(randn({4, 3, 2, 2}) + 3);
  bn(randn({4, 3, 2, 2}) + 3);
  const std::string path = ::testing::TempDir() + "/batch_norm.safetensors";
  save(bn.state_dict(), path);
  nn::BatchNorm2d loaded(3);
  loaded.load_state_dict(load(path));
  std::remove(path.c_str());
  EXPECT_EQ(values(loaded.running_mean), values(bn.running_mean));
  EXPECT_EQ(values(loaded.running_var), values(bn.running_var));
  EXPECT_EQ(loaded.num_batches_tracked.item<int64_t>(), 2);
  const auto copy = std::static_pointer_cast<nn::BatchNorm2d>(bn.clone());
  EXPECT_EQ(values(copy->running_mean), values(bn.running_mean));
  copy->running_mean.zero_();
  EXPECT_NE(values(copy->running_mean), values(bn.running_mean));
}

TEST(ConvModules, ASmallCnnLearnsToSeparateTwoPatterns) {
  // Vertical versus horizontal bars: a conv-BN-ReLU-pool block and a linear head fit them.
  manual_seed(6);
  nn::Sequential net(nn::Conv2d(1, 4, 3, 1, 1), nn::BatchNorm2d(4), nn::ReLU(),
                     nn::MaxPool2d(2), nn::AdaptiveAvgPool2d(1), nn::Flatten(), nn::Linear(4, 2));
  Tensor x = zeros({8, 1, 6, 6});
  for (int64_t i = 0; i < 8; ++i) {
    const int64_t at = i / 2 % 4 + 1;
    if (i % 2 == 0) x[i][0].narrow(1, at, 1).fill_(1);  // vertical bar
    else x[i][0].narrow(0, at, 1).fill_(1);             // horizontal bar
  }
  x = x + randn({8, 1, 6, 6}) * 0.05;
  const Tensor y = tensor({0, 1, 0, 1, 0, 1, 0, 1});
  optim::SGD sgd(net.parameters(), optim::SGDOptions(0.1).momentum(0.9));
  double first = 0, last = 0;
  for (int step = 0; step < 60; ++step) {
    sgd.zero_grad();
    const Tensor loss = cross_entropy(net(x), y);
    loss.backward();
    sgd.step();
    (step == 0 ? first : last) = loss.item<float>();
  }
  EXPECT_LT(last, 0.2 * first);
  net.eval();
  EXPECT_EQ(values(net(x).argmax(1)), values(y));
}

}  // namespace
}  // namespace tide
