// Tensor::register_post_accumulate_grad_hook: called once per accumulation with the leaf whose
// grad() is complete, in registration order, removable; may change grad(); not called by
// autograd::grad; torch's errors. autograd::queue_callback: runs after every hook of the pass.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "autograd/engine.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

TEST(PostAccumulateGradHook, SeesTheAccumulatedGradientOncePerBackward) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  std::vector<std::vector<double>> seen;
  x.register_post_accumulate_grad_hook([&](Tensor& leaf) {
    EXPECT_EQ(leaf.impl(), x.impl());  // the leaf itself, not a copy
    seen.push_back(values(leaf.grad()));
  });
  // x is used twice: the engine sums both paths first, so the hook runs once.
  (x * x + x * 3).sum().backward();
  (x * 10).sum().backward();
  EXPECT_EQ(seen, (std::vector<std::vector<double>>{{5, 7}, {15, 17}}));  // accumulated
}

TEST(PostAccumulateGradHook, HooksRunInRegistrationOrderUntilRemoved) {
  Tensor w = ones({2}).requires_grad_();
  std::string calls;
  RemovableHandle a = w.register_post_accumulate_grad_hook([&](Tensor&) { calls += "a"; });
  w.register_post_accumulate_grad_hook([&](Tensor&) { calls += "b"; });
  RemovableHandle copy = a;
  w.sum().backward();
  a.remove();
  w.sum().backward();
  copy.remove();  // a copy's remove of a removed hook does nothing
  a.remove();
  w.sum().backward();
  EXPECT_EQ(calls, "abbb");
}

TEST(PostAccumulateGradHook, AHookMayChangeTheGradient) {
  // The pattern optimizer-in-backward uses: step, then drop the gradient.
  Tensor w = tensor({1.0, 1.0}).requires_grad_();
  w.register_post_accumulate_grad_hook([](Tensor& leaf) {
    NoGradGuard no_grad;
    leaf.sub_(leaf.grad() * 0.5);
    leaf.mutable_grad() = Tensor();
  });
  (w * tensor({2.0, 4.0})).sum().backward();
  EXPECT_EQ(values(w), (std::vector<double>{0, -1}));
  EXPECT_FALSE(w.grad().defined());
}

TEST(PostAccumulateGradHook, HooksOfEveryLeafRunBeforeTheFinalCallbacks) {
  Tensor a = ones({1}).requires_grad_(), b = ones({1}).requires_grad_();
  std::string calls;
  auto hook = [&](const char* name) {
    return [&calls, name](Tensor&) {
      calls += name;
      // torch's DDP queues its finalization from the first hook of a pass.
      if (calls.size() == 1) autograd::queue_callback([&] { calls += "|done"; });
    };
  };
  a.register_post_accumulate_grad_hook(hook("a"));
  b.register_post_accumulate_grad_hook(hook("b"));
  (a * 2 + b * 3).sum().backward();
  ASSERT_EQ(calls.size(), 7u);
  EXPECT_EQ(calls.substr(2), "|done");
}

TEST(PostAccumulateGradHook, FinalCallbacksMayQueueMoreAndNeedABackward) {
  Tensor a = ones({1}).requires_grad_();
  std::string calls;
  a.register_post_accumulate_grad_hook([&](Tensor&) {
    autograd::queue_callback([&] {
      calls += "1";
      autograd::queue_callback([&] { calls += "2"; });
    });
  });
  a.sum().backward();
  EXPECT_EQ(calls, "12");
  EXPECT_THAT(error_of([] { autograd::queue_callback([] {}); }),
              HasSubstr("[autograd::queue_callback] Final callbacks can only be installed during "
                        "backward pass"));
}

TEST(PostAccumulateGradHook, AutogradGradAccumulatesNothingAndCallsNoHook) {
  Tensor x = ones({2}).requires_grad_();
  int calls = 0;
  x.register_post_accumulate_grad_hook([&](Tensor&) { ++calls; });
  autograd::grad({(x * 2).sum()}, {x});
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(x.grad().defined());
}

TEST(PostAccumulateGradHook, AnErrorInAHookLeavesBackwardAndSkipsTheCallbacks) {
  Tensor x = ones({2}).requires_grad_();
  bool finalized = false;
  x.register_post_accumulate_grad_hook([&](Tensor&) {
    autograd::queue_callback([&] { finalized = true; });
    TIDE_CHECK(false, "[test] hook failed");
  });
  EXPECT_THAT(error_of([&] { x.sum().backward(); }), HasSubstr("[test] hook failed"));
  EXPECT_FALSE(finalized);
  // The failed pass left no callback list behind.
  EXPECT_THAT(error_of([] { autograd::queue_callback([] {}); }), HasSubstr("during backward"));
}

TEST(PostAccumulateGradHook, OnlyLeavesThatRequireGradTakeHooks) {
  EXPECT_THAT(error_of([] { ones({2}).register_post_accumulate_grad_hook([](Tensor&) {}); }),
              HasSubstr("cannot register a hook on a tensor that doesn't require gradient"));
  Tensor x = ones({2}).requires_grad_();
  EXPECT_THAT(error_of([&] { (x * 2).register_post_accumulate_grad_hook([](Tensor&) {}); }),
              HasSubstr("post accumulate grad hooks cannot be registered on non-leaf tensors"));
  EXPECT_THAT(error_of([&] { x.register_post_accumulate_grad_hook({}); }),
              HasSubstr("expected a callable hook"));
}

TEST(PostAccumulateGradHook, RemovingAfterTheLeafIsGoneIsHarmless) {
  RemovableHandle handle;
  {
    Tensor x = ones({2}).requires_grad_();
    handle = x.register_post_accumulate_grad_hook([](Tensor&) {});
  }
  handle.remove();
}

}  // namespace
}  // namespace tide
