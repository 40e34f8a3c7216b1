// The op entry (Note [Op entry] in src/ops/op_entry.h): the mode word's grad bit follows grad
// mode, the entry leaves the plain path only when a mode applies to the operands, and the
// generated front ends record exactly where the hand-written lines did.

#include "ops/op_entry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "autograd/node.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

using namespace tide;
using ::testing::HasSubstr;

TEST(OpEntry, GradModeIsTheGradBitOfTheModeWord) {
  ASSERT_TRUE(GradMode::is_enabled());
  EXPECT_NE(detail::op_mode_word & detail::kGradRecordingMode, 0u);
  {
    NoGradGuard off;
    EXPECT_EQ(detail::op_mode_word & detail::kGradRecordingMode, 0u);
    EXPECT_FALSE(GradMode::is_enabled());
  }
  EXPECT_NE(detail::op_mode_word & detail::kGradRecordingMode, 0u);
}

TEST(OpEntry, TheModeWordIsPerThread) {
  NoGradGuard off;
  uint32_t other_thread = 0;
  std::thread([&] { other_thread = detail::op_mode_word; }).join();
  EXPECT_EQ(other_thread, static_cast<uint32_t>(detail::kGradRecordingMode));
  EXPECT_EQ(detail::op_mode_word & detail::kGradRecordingMode, 0u);
}

TEST(OpEntry, PlainTensorsStayOnThePlainPath) {
  Tensor a = ones({2}), b = ones({2});
  EXPECT_FALSE(detail::op_intercepted(a));
  EXPECT_FALSE(detail::op_intercepted(a, b));
  EXPECT_FALSE(detail::op_intercepted(Tensor()));
}

TEST(OpEntry, AnOperandThatRequiresGradIsInterceptedOnlyInGradMode) {
  Tensor a = ones({2}), w = ones({2}).requires_grad_();
  EXPECT_TRUE(detail::op_intercepted(a, w));
  EXPECT_TRUE(detail::op_intercepted(w.narrow(0, 0, 1)));  // a view of it: its history
  NoGradGuard off;
  EXPECT_FALSE(detail::op_intercepted(a, w));
}

TEST(OpEntry, GeneratedFrontEndsRecordTheirNodes) {
  Tensor w = full({2}, 0.5).requires_grad_();
  EXPECT_STREQ(sigmoid(w).grad_fn()->name(), "SigmoidBackward0");
  EXPECT_STREQ(add(w, w).grad_fn()->name(), "AddBackward0");
  EXPECT_STREQ(pow(2.0, w).grad_fn()->name(), "PowBackward2");
  EXPECT_STREQ((1 - w).grad_fn()->name(), "RsubBackward1");
  Tensor x = w * 1;
  x.mul_(w);
  EXPECT_STREQ(x.grad_fn()->name(), "MulBackward0");
  EXPECT_EQ(gt(w, 0).grad_fn(), nullptr);  // comparisons are not differentiable
  NoGradGuard off;
  EXPECT_EQ(sigmoid(w).grad_fn(), nullptr);
}

TEST(OpEntry, AnOutVariantRefusesAnOperandThatRequiresGrad) {
  Tensor w = ones({2}).requires_grad_(), out = empty({2});
  try {
    add_out(out, w, w);
    FAIL() << "add_out with an operand that requires grad ran";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("add_out"));
  }
  NoGradGuard off;
  EXPECT_EQ(add_out(out, w, w).sum().item<float>(), 4.0f);
}

TEST(OpEntry, ErrorsNameTheOpNotItsFamily) {
  Tensor b = ones({2}, dtype(kBool));
  try {
    relu(b);
    FAIL() << "relu of a bool tensor ran";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[relu] Boolean inputs not supported for relu"));
  }
  try {
    ones({2}).sub_(ones({3}));
    FAIL() << "an in-place sub that would grow self ran";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[Tensor::sub_]"));
  }
}

// Views, copies and fills are methods only: their front end is the generated method, which
// enters once and records the node the hand-written line used to.
TEST(OpEntry, GeneratedMethodFrontEndsRecordTheirNodes) {
  Tensor w = full({2, 3}, 0.5).requires_grad_();
  EXPECT_STREQ(w.view({3, 2}).grad_fn()->name(), "ViewBackward0");
  EXPECT_STREQ(w.transpose(0, 1).grad_fn()->name(), "TransposeBackward0");
  EXPECT_STREQ(w.slice(1, 0, 2).grad_fn()->name(), "SliceBackward0");
  EXPECT_STREQ(w.squeeze(0).grad_fn()->name(), "SqueezeBackward1");
  EXPECT_STREQ(w.clone().grad_fn()->name(), "CloneBackward0");
  EXPECT_STREQ(w.to(kFloat64).grad_fn()->name(), "ToCopyBackward0");
  Tensor x = w * 1;
  x.copy_(w);
  EXPECT_STREQ(x.grad_fn()->name(), "CopyBackwards");
  x.fill_(2.0);
  EXPECT_STREQ(x.grad_fn()->name(), "FillBackward0");
  x.normal_();
  EXPECT_STREQ(x.grad_fn()->name(), "NormalBackward0");
  x.uniform_();
  EXPECT_STREQ(x.grad_fn()->name(), "UniformBackward0");
  NoGradGuard off;
  EXPECT_EQ(w.view({3, 2}).grad_fn(), nullptr);
  EXPECT_EQ(w.clone().grad_fn(), nullptr);
}

TEST(OpEntry, AListOperandIsInterceptedWhenAnyOfItsTensorsHasHistory) {
  Tensor a = ones({2}), w = ones({2}).requires_grad_();
  EXPECT_FALSE(detail::op_intercepted(std::vector<Tensor>{a, a}));
  EXPECT_TRUE(detail::op_intercepted(std::vector<Tensor>{a, w}));
  EXPECT_STREQ(cat({a, w}).grad_fn()->name(), "CatBackward0");
  EXPECT_EQ(cat({a, a}).grad_fn(), nullptr);
  NoGradGuard off;
  EXPECT_FALSE(detail::op_intercepted(std::vector<Tensor>{a, w}));
}

// Composite entries (stack, linear, flatten, ...) have no recording of their own: the ops they
// are made of record.
TEST(OpEntry, CompositeOpsRecordThroughTheirParts) {
  Tensor w = ones({2, 2}).requires_grad_(), x = ones({3, 2});
  EXPECT_STREQ(stack({w, w}).grad_fn()->name(), "CatBackward0");
  EXPECT_STREQ(linear(x, w, ones({2})).grad_fn()->name(), "AddmmBackward0");
  EXPECT_STREQ(w.flatten().grad_fn()->name(), "ViewBackward0");
  EXPECT_STREQ(w.t().grad_fn()->name(), "TransposeBackward0");
  EXPECT_STREQ(w.chunk(2)[1].grad_fn()->name(), "SliceBackward0");
}

TEST(OpEntry, ChunkAndSplitCheckTheirInputAsMethodsToo) {
  for (auto call : {+[] { Tensor().chunk(2); }, +[] { Tensor().split(1); },
                    +[] { Tensor().split(std::vector<int64_t>{1}); }}) {
    try {
      call();
      FAIL() << "chunk or split of an undefined tensor ran";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("expected a defined tensor for input"));
    }
  }
}

TEST(OpEntry, CopyIntoAConstHandleWritesTheStorage) {
  const Tensor dst = zeros({2});
  dst.copy_(full({2}, 3.0));
  EXPECT_EQ(dst.sum().item<float>(), 6.0f);
}
