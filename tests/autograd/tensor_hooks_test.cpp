// autograd::register_hook, retain_grad and backward(inputs=) (include/tide/autograd.h; Note
// [Tensor hooks] in src/autograd/tensor_hooks.h): hooks see the gradient before it is used and
// may replace it; captured gradients of autograd::grad are taken before the hooks (torch 1.13).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

TEST(TensorHooks, AHookOnANonLeafMayReplaceTheGradientThatFlowsOn) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x * 3;
  std::vector<double> seen;
  autograd::register_hook(y, [&](const Tensor& g) {
    seen = values(g);
    return g * 10;
  });
  (y * y).sum().backward();
  EXPECT_EQ(seen, (std::vector<double>{6, 12}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{180, 360}));
}

TEST(TensorHooks, LeafHooksRunBeforeAccumulationInOrderUntilRemoved) {
  Tensor w = tensor({1.0}).requires_grad_();  // registered before any graph uses w
  std::string calls;
  RemovableHandle a = autograd::register_hook(w, [&](const Tensor& g) {
    calls += "a";
    return g + 1;
  });
  autograd::register_hook(w, [&](const Tensor& g) {
    calls += "b";
    EXPECT_EQ(values(g), (std::vector<double>{3}));  // sees a's replacement
    return Tensor();                                  // keeps it
  });
  (w * 2).sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{3}));
  a.remove();
  w.mutable_grad() = Tensor();
  (w * 3).sum().backward();
  EXPECT_EQ(calls, "abb");
}

TEST(TensorHooks, RetainGradKeepsANonLeafsGradientAcrossBackwards) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_FALSE(autograd::retains_grad(y));
  autograd::retain_grad(y);
  autograd::retain_grad(x);  // a leaf: nothing to do
  EXPECT_TRUE(autograd::retains_grad(y));
  EXPECT_FALSE(autograd::retains_grad(x));
  Tensor loss = (y * y).sum();
  loss.backward({}, /*retain_graph=*/true);
  EXPECT_EQ(values(y.grad()), (std::vector<double>{4, 8}));
  loss.backward();
  EXPECT_EQ(values(y.grad()), (std::vector<double>{8, 16}));
  EXPECT_THAT(error_of([] { autograd::retain_grad(ones({1})); }),
              HasSubstr("can't retain_grad on Tensor that has requires_grad=False"));
  EXPECT_THAT(error_of([] { autograd::register_hook(ones({1}), [](const Tensor& g) { return g; }); }),
              HasSubstr("cannot register a hook on a tensor that doesn't require gradient"));
}

TEST(TensorHooks, AutogradGradCapturesBeforeTheHooksAsTorch113) {
  Tensor x = ones({2}).requires_grad_();
  Tensor y = x * 2;
  autograd::register_hook(y, [](const Tensor& g) { return g * 10; });
  autograd::register_hook(x, [](const Tensor& g) { return g * 3; });
  Tensor z = (y * y).sum();
  EXPECT_EQ(values(autograd::grad({z}, {y}, {}, true)[0]), (std::vector<double>{4, 4}));
  EXPECT_EQ(values(autograd::grad({z}, {x})[0]), (std::vector<double>{80, 80}));
}

TEST(TensorHooks, AllowUnusedGivesAnUndefinedGradient) {
  Tensor x = ones({2}).requires_grad_();
  Tensor unused = ones({2}).requires_grad_();
  std::vector<Tensor> g = autograd::grad({(x * 2).sum()}, {x, unused}, {}, false, true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{2, 2}));
  EXPECT_FALSE(g[1].defined());
}

TEST(TensorHooks, BackwardWithInputsAccumulatesIntoThoseOnly) {
  Tensor a = tensor({1.0}).requires_grad_();
  Tensor b = tensor({2.0}).requires_grad_();
  Tensor h = a * b;
  Tensor loss = h * 3;
  autograd::backward({loss}, {}, /*retain_graph=*/true, {a});
  EXPECT_EQ(values(a.grad()), (std::vector<double>{6}));
  EXPECT_FALSE(b.grad().defined());
  autograd::backward({loss}, {}, false, {h, b});  // a non-leaf input keeps its gradient
  EXPECT_EQ(values(h.grad()), (std::vector<double>{3}));
  EXPECT_EQ(values(b.grad()), (std::vector<double>{3}));
  EXPECT_EQ(values(a.grad()), (std::vector<double>{6}));
}

}  // namespace
}  // namespace tide
