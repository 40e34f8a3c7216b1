// The optimizer classes (Note [Optimizers hold parameters]): construction checks, zero_grad,
// skipping parameters without a gradient, state that survives a rejected step.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using ::testing::HasSubstr;
using test::error_of;

TEST(Optimizer, RejectsAnEmptyListAndParametersItCannotUpdate) {
  EXPECT_THAT(error_of([] { optim::SGD({}, optim::SGDOptions(0.1)); }),
              HasSubstr("[optim::SGD] optimizer got an empty parameter list"));
  EXPECT_THAT(error_of([] { optim::Adam({Tensor()}); }),
              HasSubstr("[optim::Adam] parameter 0 is an undefined Tensor"));
  EXPECT_THAT(error_of([] { optim::SGD({ones({2}), arange(3)}, optim::SGDOptions(0.1)); }),
              HasSubstr("parameter 1 has dtype int64"));
  Tensor leaf = ones({2}).requires_grad_();
  Tensor computed = leaf * 2;
  EXPECT_THAT(error_of([&] { optim::SGD({computed}, optim::SGDOptions(0.1)); }),
              HasSubstr("can't optimize a non-leaf Tensor"));
  EXPECT_THAT(error_of([&] { optim::SGD({leaf}, optim::SGDOptions(-1)); }),
              HasSubstr("Invalid learning rate"));
}

TEST(Optimizer, ZeroGradSetsToNoneByDefaultOrZeroes) {
  Tensor w = ones({3}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(0.1));
  (w * 2).sum().backward();
  ASSERT_TRUE(w.grad().defined());
  opt.zero_grad(/*set_to_none=*/false);
  ASSERT_TRUE(w.grad().defined());
  EXPECT_EQ(w.grad().tolist<float>(), (std::vector<float>{0, 0, 0}));
  opt.zero_grad();
  EXPECT_FALSE(w.grad().defined());
}

TEST(Optimizer, AStepUpdatesOnlyParametersWithAGradient) {
  Tensor used = ones({2}).requires_grad_();
  Tensor unused = ones({2}).requires_grad_();
  optim::SGD opt({used, unused}, optim::SGDOptions(0.5));
  (used * 3).sum().backward();
  opt.step();
  EXPECT_EQ(used.tolist<float>(), (std::vector<float>{-0.5f, -0.5f}));
  EXPECT_EQ(unused.tolist<float>(), (std::vector<float>{1, 1}));
}

TEST(Optimizer, AStepIsAnInPlaceModificationForAutograd) {
  Tensor w = ones({2}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(0.1));
  (w * w).sum().backward();
  const Tensor saved_loss = (w * w).sum();  // saves w for its backward
  opt.step();
  EXPECT_THAT(error_of([&] { saved_loss.backward(); }),
              HasSubstr("modified by an inplace operation"));
}

TEST(Optimizer, MomentumMatchesTorchsRuleOverTwoSteps) {
  // torch: buf = g (first step), then buf = momentum * buf + (1 - dampening) * g.
  Tensor w = zeros({1}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(1.0).momentum(0.5));
  for (int i = 0; i < 2; ++i) {
    opt.zero_grad();
    (w * 2).sum().backward();  // gradient 2
    opt.step();
  }
  // w1 = -2; buf2 = 0.5 * 2 + 2 = 3; w2 = -2 - 3 = -5
  EXPECT_FLOAT_EQ(w.item<float>(), -5.f);
}

TEST(Optimizer, ARejectedStepLeavesNoStateBehind) {
  Tensor w = zeros({2}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(1.0).momentum(0.5));
  w.mutable_grad() = ones({3});  // wrong shape: the step is rejected
  EXPECT_THAT(error_of([&] { opt.step(); }), HasSubstr("optim::SGD::step"));
  w.mutable_grad() = full({2}, 2.f);
  opt.step();  // the real first step: the buffer is the gradient
  EXPECT_EQ(w.tolist<float>(), (std::vector<float>{-2, -2}));
  optim::Adam adam({w}, optim::AdamOptions(0.1));
  w.mutable_grad() = ones({3});
  EXPECT_THAT(error_of([&] { adam.step(); }), HasSubstr("optim::Adam::step"));
  w.mutable_grad() = ones({2});
  adam.step();  // step 1: the update is lr * sign(g) after bias correction
  EXPECT_NEAR(w.tolist<float>()[0], -2.1f, 1e-6);
}
