// conv2d, conv1d, the poolings and batch_norm: autograd's gradients against central
// differences in float64 (tests/support/gradcheck.h), every differentiable input at once.
// Pooling inputs are distinct random values, so no window has a tie for its maximum (where
// max_pool2d is not differentiable) with probability 1.

#include <gtest/gtest.h>

#include "support/gradcheck.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::gradcheck;
using test::rnd;
using V = const std::vector<Tensor>&;

TEST(ConvGradcheck, Conv2dWithStridePaddingDilationAndBias) {
  EXPECT_TRUE(gradcheck([](V x) { return conv2d(x[0], x[1], x[2], {2, 1}, {1, 2}, {1, 2}); },
                        {rnd({2, 2, 5, 6}, 1), rnd({3, 2, 3, 2}, 2), rnd({3}, 3)}));
}

TEST(ConvGradcheck, Conv2dWithGroupsAndNoBias) {
  EXPECT_TRUE(gradcheck([](V x) { return conv2d(x[0], x[1], {}, 1, 1, 1, 2); },
                        {rnd({2, 4, 4, 4}, 4), rnd({4, 2, 3, 3}, 5)}));
}

TEST(ConvGradcheck, Conv2dSamePaddingWithAnEvenKernelAndUnbatchedInput) {
  EXPECT_TRUE(gradcheck([](V x) { return conv2d(x[0], x[1], x[2], 1, "same"); },
                        {rnd({2, 5, 4}, 6), rnd({3, 2, 2, 3}, 7), rnd({3}, 8)}));
}

TEST(ConvGradcheck, Conv2dGradientOfOneInputOnly) {
  // The weight is a constant: only the input's gradient is computed (Saved::needs).
  const Tensor w = rnd({2, 3, 3, 3}, 9);
  EXPECT_TRUE(gradcheck([&](V x) { return conv2d(x[0], w, {}, 1, 1); }, {rnd({1, 3, 4, 4}, 10)}));
  const Tensor in = rnd({1, 3, 4, 4}, 11);
  EXPECT_TRUE(gradcheck([&](V x) { return conv2d(in, x[0], x[1]); },
                        {rnd({2, 3, 3, 3}, 12), rnd({2}, 13)}));
}

TEST(ConvGradcheck, Conv1d) {
  EXPECT_TRUE(gradcheck([](V x) { return conv1d(x[0], x[1], x[2], 2, 1, 2); },
                        {rnd({2, 3, 9}, 14), rnd({4, 3, 3}, 15), rnd({4}, 16)}));
}

TEST(ConvGradcheck, MaxPool2dWithPaddingDilationAndCeilMode) {
  EXPECT_TRUE(gradcheck([](V x) { return max_pool2d(x[0], 3, 2, 1, 1, true); },
                        {rnd({2, 2, 7, 6}, 17)}));
  EXPECT_TRUE(gradcheck([](V x) { return max_pool2d(x[0], {2, 3}, 1, 0, {2, 1}); },
                        {rnd({1, 2, 6, 6}, 18)}));
}

TEST(ConvGradcheck, AvgPool2dEveryDivisorRule) {
  EXPECT_TRUE(gradcheck([](V x) { return avg_pool2d(x[0], 3, 2, 1, true, true); },
                        {rnd({2, 2, 7, 6}, 19)}));
  EXPECT_TRUE(gradcheck([](V x) { return avg_pool2d(x[0], 3, 2, 1, false, false); },
                        {rnd({2, 2, 7, 6}, 20)}));
  EXPECT_TRUE(gradcheck([](V x) { return avg_pool2d(x[0], 2, 1, 0, false, true, 3); },
                        {rnd({1, 2, 4, 5}, 21)}));
}

TEST(ConvGradcheck, AdaptiveAvgPool2dWithOverlappingWindows) {
  EXPECT_TRUE(gradcheck([](V x) { return adaptive_avg_pool2d(x[0], {3, 4}); },
                        {rnd({2, 2, 7, 5}, 22)}));
}

TEST(ConvGradcheck, BatchNormTrainingAndEval) {
  EXPECT_TRUE(gradcheck(
      [](V x) { return batch_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5); },
      {rnd({4, 3, 2, 2}, 23), rnd({3}, 24), rnd({3}, 25)}));
  const Tensor mean = rnd({3}, 26), var = rnd({3}, 27).abs() + 0.5;
  EXPECT_TRUE(gradcheck(
      [&](V x) { return batch_norm(x[0], x[1], x[2], mean, var, false, 0.1, 1e-5); },
      {rnd({4, 3, 2, 2}, 28), rnd({3}, 29), rnd({3}, 30)}));
}

}  // namespace
}  // namespace tide
