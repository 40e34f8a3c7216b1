// The engine and the Tensor side of autograd: accumulation, retain_graph, backward(gradient),
// autograd::grad, grad mode, leaves and detach, set_data, and every error with torch's wording.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "autograd/node.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

TEST(Autograd, PlainTensorsHaveNoAutogradMetadata) {
  const Tensor a = ones({3}), b = a * 2 + 1;
  EXPECT_EQ(a.impl()->autograd, nullptr);
  EXPECT_EQ(b.impl()->autograd, nullptr);
  EXPECT_FALSE(b.requires_grad());
  EXPECT_TRUE(b.is_leaf());
  EXPECT_FALSE(b.grad().defined());
}

TEST(Autograd, GradientsAccumulateIntoLeavesAcrossBackwardCalls) {
  Tensor x = tensor({1.0, 2.0, 3.0}).requires_grad_();
  EXPECT_TRUE(x.is_leaf());
  Tensor y = (x * x).sum();
  EXPECT_FALSE(y.is_leaf());
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_STREQ(y.grad_fn()->name(), "SumBackward0");
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4, 6}));
  (x * 3).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 7, 9}));
}

TEST(Autograd, AUserHeldGradIsNotChangedByALaterBackward) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  x.sum().backward();
  const Tensor first = x.grad();
  x.sum().backward();
  EXPECT_EQ(values(first), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 2}));
}

TEST(Autograd, GradNeverAliasesTheCallersGradient) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor g = tensor({5.0, 6.0});
  (x + 0).backward(g);
  g.fill_(0);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{5, 6}));
}

TEST(Autograd, AValueUsedTwiceSumsBothGradients) {
  Tensor x = tensor({2.0}).requires_grad_();
  Tensor y = x * x * x + x.exp();  // 3x^2 + e^x
  y.sum().backward();
  EXPECT_NEAR(values(x.grad())[0], 12 + std::exp(2.0), 1e-5);
}

TEST(Autograd, BackwardOfANonScalarTakesAGradient) {
  Tensor x = tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor y = x * 2;
  y.backward(tensor({1.0, 0.5, 0.0}));
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 1, 0}));
}

TEST(Autograd, BackwardOfANonScalarWithoutAGradientRaises) {
  Tensor x = ones({3}).requires_grad_();
  EXPECT_THAT(error_of([&] { (x * 2).backward(); }),
              HasSubstr("grad can be implicitly created only for scalar outputs"));
}

TEST(Autograd, AGradientOfTheWrongShapeOrDeviceRaises) {
  Tensor x = ones({3}).requires_grad_();
  EXPECT_THAT(error_of([&] { (x * 2).backward(ones({2})); }),
              HasSubstr("Mismatch in shape: grad_output[0] has a shape of tide.Size([2]) and "
                        "output[0] has a shape of tide.Size([3])."));
  EXPECT_THAT(error_of([&] {
                autograd::grad({x * 2}, {x}, {ones({3, 1})});
              }),
              HasSubstr("Mismatch in shape"));
}

TEST(Autograd, BackwardOnATensorThatDoesNotRequireGradRaises) {
  EXPECT_THAT(error_of([] { ones({1}).sum().backward(); }),
              HasSubstr("element 0 of tensors does not require grad and does not have a grad_fn"));
  Tensor x = ones({1}).requires_grad_();
  NoGradGuard no_grad;
  EXPECT_THAT(error_of([&] { (x * 2).sum().backward(); }),
              HasSubstr("element 0 of tensors does not require grad"));
}

TEST(Autograd, RequiresGradOnAnIntegerTensorRaises) {
  EXPECT_THAT(error_of([] {
                tensor({1, 2}).requires_grad_();
              }),
              HasSubstr("only Tensors of floating point and complex dtype can require gradients"));
  EXPECT_THAT(error_of([] { zeros({2}, dtype(kInt64).requires_grad(true)); }),
              HasSubstr("only Tensors of floating point and complex dtype can require gradients"));
}

TEST(Autograd, TensorOptionsRequiresGradMakesALeaf) {
  for (const Tensor& t : {zeros({2}, TensorOptions().requires_grad(true)),
                          ones({2}, dtype(kFloat64).requires_grad(true)),
                          full({2}, 3.0, TensorOptions().requires_grad(true)),
                          randn({2}, TensorOptions().requires_grad(true)),
                          tensor({1.0, 2.0}, TensorOptions().requires_grad(true)),
                          zeros_like(ones({2}), TensorOptions().requires_grad(true))}) {
    EXPECT_TRUE(t.requires_grad());
    EXPECT_TRUE(t.is_leaf());
  }
  EXPECT_EQ(values(full({2}, 3.0, TensorOptions().requires_grad(true))),
            (std::vector<double>{3, 3}));
}

TEST(Autograd, ASecondBackwardThroughAFreedGraphRaisesAndRetainGraphAllowsIt) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = (x * x).sum();
  y.backward(Tensor(), /*retain_graph=*/true);
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{4, 8}));
  EXPECT_THAT(error_of([&] { y.backward(); }),
              HasSubstr("Trying to backward through the graph a second time (or directly access "
                        "saved tensors after they have already been freed)"));
}

TEST(Autograd, AGraphWithoutSavedTensorsMayRunTwiceAsInTorch) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor y = (x + 1).sum();
  y.backward();
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2}));
}

TEST(Autograd, AutogradGradReturnsGradientsWithoutTouchingGrad) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor w = tensor({3.0, 4.0}).requires_grad_();
  Tensor h = x * w;
  Tensor y = h.sum();
  auto g = autograd::grad({y}, {x, h}, {}, /*retain_graph=*/true);
  EXPECT_EQ(values(g[0]), (std::vector<double>{3, 4}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{1, 1}));
  EXPECT_FALSE(x.grad().defined());
  EXPECT_FALSE(w.grad().defined());
  auto g2 = autograd::grad({y * 2}, {w}, {tensor(0.5)});
  EXPECT_EQ(values(g2[0]), (std::vector<double>{1, 2}));
}

TEST(Autograd, AutogradGradRaisesForInputsOutsideTheGraph) {
  Tensor x = ones({2}).requires_grad_();
  Tensor unused = ones({2}).requires_grad_();
  EXPECT_THAT(
      error_of([&] { autograd::grad({x.sum()}, {unused}); }),
      HasSubstr("One of the differentiated Tensors appears to not have been used in the graph"));
  EXPECT_THAT(error_of([&] { autograd::grad({x.sum()}, {ones({2})}); }),
              HasSubstr("One of the differentiated Tensors does not require grad"));
}

TEST(Autograd, NoGradGuardStopsRecordingOnItsThreadOnly) {
  Tensor x = ones({2}).requires_grad_();
  {
    NoGradGuard no_grad;
    EXPECT_FALSE(GradMode::is_enabled());
    EXPECT_FALSE((x * 2).requires_grad());
    bool other_thread_records = false;
    std::thread([&] { other_thread_records = (x * 2).requires_grad(); }).join();
    EXPECT_TRUE(other_thread_records);
    {
      AutoGradMode on(true);
      EXPECT_TRUE((x * 2).requires_grad());
    }
    EXPECT_FALSE(GradMode::is_enabled());
  }
  EXPECT_TRUE(GradMode::is_enabled());
  EXPECT_TRUE((x * 2).requires_grad());
}

TEST(Autograd, ThreadsBackpropagatingIntoOneLeafAccumulateEveryGradient) {
  Tensor w = zeros({8}).requires_grad_();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&w] {
      for (int i = 0; i < 50; ++i) (w * 2 + 1).sum().backward();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(values(w.grad()), std::vector<double>(8, 4 * 50 * 2));
}

TEST(Autograd, DetachSharesDataButLeavesTheGraph) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x * 2;
  Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  EXPECT_EQ(d.raw_data(), y.raw_data());
  EXPECT_FALSE((d * x).grad_fn() == nullptr);
  (d * x).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4}));  // d is a constant
}

TEST(Autograd, RequiresGradFlagsOfNonLeavesCannotBeCleared) {
  Tensor x = ones({1}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_THAT(error_of([&] { y.requires_grad_(false); }),
              HasSubstr("you can only change requires_grad flags of leaf variables"));
  x.requires_grad_(false);
  EXPECT_FALSE((x * 2).requires_grad());
}

TEST(Autograd, SetDataGivesEveryHandleTheNewStorageAndKeepsTheAutogradState) {
  Tensor param = ones({2}).requires_grad_();
  Tensor handle = param;  // e.g. an optimizer's copy of the handle
  param.set_data(tensor({5.0, 6.0, 7.0}));
  EXPECT_EQ(handle.sizes(), (std::vector<int64_t>{3}));
  EXPECT_EQ(values(handle), (std::vector<double>{5, 6, 7}));
  EXPECT_TRUE(handle.requires_grad());
  EXPECT_TRUE(handle.is_leaf());
  (handle * 2).sum().backward();
  EXPECT_EQ(values(param.grad()), (std::vector<double>{2, 2, 2}));
  EXPECT_THAT(error_of([&] {
                param.set_data(tensor({1, 2}));
              }),
              HasSubstr("must be floating point"));
}

TEST(Autograd, ModifyingASavedTensorInPlaceRaisesNamingTheOp) {
  Tensor x = tensor({1.0, 2.0, 3.0}, dtype(kFloat32)).requires_grad_();
  Tensor y = x.exp();
  EXPECT_EQ(y._version(), 0u);
  y.add_(1);
  EXPECT_EQ(y._version(), 1u);
  EXPECT_THAT(error_of([&] { y.sum().backward(); }),
              HasSubstr("one of the variables needed for gradient computation has been modified by "
                        "an inplace operation: [tide.FloatTensor [3]], which is output 0 of "
                        "ExpBackward0, is at version 1; expected version 0 instead."));
}

TEST(Autograd, ModifyingASavedLeafThroughADetachedAliasRaises) {
  Tensor x = tensor({1.0, 2.0}, dtype(kFloat32)).requires_grad_();
  Tensor y = (x * x).sum();
  x.detach().mul_(2);  // shares x's version counter, as torch
  EXPECT_THAT(error_of([&] { y.backward(); }),
              HasSubstr("[tide.FloatTensor [2]] is at version 1; expected version 0 instead."));
}

TEST(Autograd, InPlaceOnALeafThatRequiresGradRaisesButNotUnderNoGrad) {
  Tensor x = ones({2}).requires_grad_();
  EXPECT_THAT(
      error_of([&] { x.add_(1); }),
      HasSubstr("a leaf Variable that requires grad is being used in an in-place operation."));
  EXPECT_THAT(error_of([&] { x.zero_(); }), HasSubstr("a leaf Variable that requires grad"));
  {
    NoGradGuard no_grad;
    x.mul_(3);  // an optimizer step
  }
  EXPECT_EQ(values(x), (std::vector<double>{3, 3}));
}

TEST(Autograd, InPlaceOnANonLeafRebasesItsHistory) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor w = tensor({3.0, 4.0}).requires_grad_();
  Tensor y = x * 2;
  y.mul_(w);
  EXPECT_STREQ(y.grad_fn()->name(), "MulBackward0");
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 8}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{2, 4}));
}

TEST(Autograd, InPlaceOnAViewRewritesItsBasesHistory) {
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0}).requires_grad_();
  Tensor y = x * 2;
  y.narrow(0, 0, 2).mul_(3);
  EXPECT_STREQ(y.grad_fn()->name(), "CopySlices");
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 6, 2, 2}));
}

TEST(Autograd, AnOlderViewSeesItsBaseWrittenInPlace) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x * 2;
  Tensor first = y[0];
  y.mul_(3);                                                    // first now holds 6 * x[0]
  EXPECT_STREQ(first.grad_fn()->name(), "AsStridedBackward0");  // replayed, as torch
  (first * 1).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 0}));
}

TEST(Autograd, AViewWrittenThroughAnotherViewGetsTheNewHistory) {
  Tensor x = tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor w = tensor({5.0}).requires_grad_();
  Tensor y = x * 1;
  Tensor all = y.view({3});
  y.narrow(0, 1, 1).copy_(w);  // y[1] is now w
  all.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(values(w.grad()), (std::vector<double>{1}));
}

TEST(Autograd, InPlaceOnAViewOfALeafThatRequiresGradRaises) {
  Tensor x = ones({4}).requires_grad_();
  EXPECT_THAT(
      error_of([&] { x.narrow(0, 0, 2).mul_(3); }),
      HasSubstr(
          "a view of a leaf Variable that requires grad is being used in an in-place operation."));
}

TEST(Autograd, WritingAGradientIntoAViewOfAPlainTensorGivesTheTensorACopySlicesHistory) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor buffer = zeros({4});
  Tensor v = buffer.narrow(0, 1, 2);
  EXPECT_FALSE(v.requires_grad());
  v.copy_(x * 2);
  EXPECT_EQ(values(buffer), (std::vector<double>{0, 2, 4, 0}));
  EXPECT_TRUE(buffer.requires_grad());
  EXPECT_FALSE(buffer.is_leaf());
  EXPECT_STREQ(buffer.grad_fn()->name(), "CopySlices");
  EXPECT_STREQ(v.grad_fn()->name(), "AsStridedBackward0");
  (buffer * tensor({1.0, 10.0, 100.0, 1000.0})).sum().backward(Tensor(), /*retain_graph=*/true);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{20, 200}));
  x.mutable_grad() = Tensor();
  buffer.sum().backward(Tensor(), /*retain_graph=*/true);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 2}));
  x.mutable_grad() = Tensor();
  (v * tensor({1.0, 3.0})).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 6}));
}

TEST(Autograd, WritingAGradientIntoAWholeStorageViewGivesItsBaseTheHistory) {
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0}).requires_grad_();
  Tensor buffer = zeros({4});
  Tensor whole = buffer.view({2, 2});
  whole.copy_((x * 3).view({2, 2}));
  EXPECT_STREQ(buffer.grad_fn()->name(), "CopySlices");
  (buffer * tensor({1.0, 2.0, 3.0, 4.0})).sum().backward(Tensor(), /*retain_graph=*/true);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 6, 9, 12}));
  x.mutable_grad() = Tensor();
  whole.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 3, 3, 3}));
}

TEST(Autograd, AViewOfAViewWritesIntoTheRootBaseAndTheMiddleViewSeesIt) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor buffer = zeros({2, 3});
  Tensor row = buffer[1];
  Tensor part = row.narrow(0, 1, 2);
  EXPECT_EQ(part.impl()->view_base.get(), buffer.impl());  // the base is never a view
  part.copy_(x * 2);
  EXPECT_EQ(values(buffer), (std::vector<double>{0, 0, 0, 0, 2, 4}));
  EXPECT_STREQ(buffer.grad_fn()->name(), "CopySlices");
  EXPECT_TRUE(row.requires_grad());  // made before the write: replays the base's history
  (buffer * tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}})).sum().backward(Tensor(), true);
  EXPECT_EQ(values(x.grad()), (std::vector<double>{10, 12}));
  x.mutable_grad() = Tensor();
  (row * tensor({1.0, 10.0, 100.0})).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{20, 200}));
}

TEST(Autograd, AViewOfAPlainTensorReplaysTheHistoryTheTensorGetsLater) {
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0}).requires_grad_();
  Tensor buffer = zeros({4});
  Tensor v = buffer.narrow(0, 0, 2);
  EXPECT_FALSE(v.requires_grad());
  buffer.copy_(x * 2);
  EXPECT_STREQ(buffer.grad_fn()->name(), "CopyBackwards");
  EXPECT_TRUE(v.requires_grad());
  EXPECT_FALSE(v.is_leaf());
  EXPECT_STREQ(v.grad_fn()->name(), "AsStridedBackward0");
  Tensor y = v * tensor({1.0, 3.0});  // ops on the old view record
  EXPECT_STREQ(y.grad_fn()->name(), "MulBackward0");
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 6, 0, 0}));
}

TEST(Autograd, WritingAGradientIntoADetachLeavesTheOriginalAlone) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor buffer = zeros({2});
  Tensor d = buffer.detach();
  const uint32_t version = buffer._version();
  d.copy_(x * 2);
  EXPECT_STREQ(d.grad_fn()->name(), "CopyBackwards");
  EXPECT_FALSE(buffer.requires_grad());  // detach() is not a view: no history for the original
  EXPECT_EQ(buffer.impl()->autograd, nullptr);
  EXPECT_EQ(values(buffer), (std::vector<double>{2, 4}));  // but the data and the version counter
  EXPECT_EQ(buffer._version(), version + 1);
  d.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 2}));

  Tensor w = tensor({5.0, 6.0}).requires_grad_();
  Tensor y = x * 3;
  y.detach().copy_(w);
  EXPECT_STREQ(y.grad_fn()->name(), "MulBackward1");  // y's history is unchanged
  x.mutable_grad() = Tensor();
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 3}));
  EXPECT_FALSE(w.grad().defined());
}

TEST(Autograd, AViewMadeBeforeItsBaseRequiresGradRequiresGradButHasNoHistoryUntilAWrite) {
  // As torch: the view requires grad through its base, but no gradient flows from it into the
  // base until the version counter says the base changed.
  Tensor buffer = zeros({4});
  Tensor v = buffer.narrow(0, 1, 2);
  buffer.requires_grad_();
  EXPECT_TRUE(v.requires_grad());
  EXPECT_TRUE(v.is_leaf());
  EXPECT_EQ(v.grad_fn(), nullptr);
  (v * 2).sum().backward();
  EXPECT_FALSE(buffer.grad().defined());
  EXPECT_THAT(error_of([&] { v.backward(ones({2})); }),
              HasSubstr("element 0 of tensors does not require grad and does not have a grad_fn"));
  EXPECT_THAT(error_of([&] { v.mul_(2); }), HasSubstr("a view of a leaf Variable"));
  (buffer.narrow(0, 1, 2) * 2).sum().backward();  // a view taken now
  EXPECT_EQ(values(buffer.grad()), (std::vector<double>{0, 2, 2, 0}));
  {
    NoGradGuard no_grad;
    buffer.add_(1);  // an optimizer step: the version moves
  }
  EXPECT_STREQ(v.grad_fn()->name(), "AsStridedBackward0");
  (v * 2).sum().backward();
  EXPECT_EQ(values(buffer.grad()), (std::vector<double>{0, 4, 4, 0}));
}

TEST(Autograd, AViewMadeUnderNoGradRefusesToTakeHistoryAsInTorch) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor buffer = zeros({4});
  Tensor v;
  {
    NoGradGuard no_grad;
    v = buffer.narrow(0, 0, 2);
  }
  Tensor vv = v.narrow(0, 0, 1);  // a view of it, made with grad mode on, inherits that
  EXPECT_THAT(error_of([&] { v.copy_(x); }),
              HasSubstr("A view was created in no_grad mode and is being modified inplace with "
                        "grad mode enabled."));
  EXPECT_THAT(error_of([&] { vv.copy_(x.narrow(0, 0, 1)); }),
              HasSubstr("A view was created in no_grad mode"));
  v.fill_(1);  // nothing requires grad: allowed
  {
    NoGradGuard no_grad;
    v.copy_(x);  // both inside no_grad: not recorded
  }
  EXPECT_FALSE(buffer.requires_grad());
  buffer.copy_(cat({x, x}));
  EXPECT_THAT(error_of([&] { (v * 2).sum(); }),
              HasSubstr("A view was created in no_grad mode and its base or another view of its "
                        "base has been modified inplace with grad mode enabled."));
  NoGradGuard no_grad;
  EXPECT_EQ(values(v * 2), (std::vector<double>{2, 4}));
}

TEST(Autograd, ModifyingASavedTensorThroughAPlainViewOrADetachRaises) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor b = tensor({3.0, 4.0});
  Tensor y = (x * b).sum();  // saves b for x's gradient
  b.narrow(0, 0, 1).fill_(0);
  EXPECT_THAT(error_of([&] { y.backward(); }),
              HasSubstr("[tide.FloatTensor [2]] is at version 1; expected version 0 instead."));
  Tensor z = (x * b).sum();
  b.detach().mul_(2);
  EXPECT_THAT(error_of([&] { z.backward(); }),
              HasSubstr("[tide.FloatTensor [2]] is at version 2; expected version 1 instead."));
}

TEST(Autograd, CopyIntoAPlainTensorMakesItPartOfTheGraph) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor buffer = zeros({2});
  buffer.copy_(x * 3);
  EXPECT_TRUE(buffer.requires_grad());
  EXPECT_FALSE(buffer.is_leaf());
  buffer.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{3, 3}));
}

TEST(Autograd, OutVariantsRefuseOperandsThatRequireGrad) {
  Tensor x = ones({2}).requires_grad_();
  Tensor out = empty({2});
  EXPECT_THAT(
      error_of([&] { add_out(out, x, x); }),
      HasSubstr("functions with out=... arguments don't support automatic differentiation"));
}

TEST(Autograd, NonDifferentiableOutputsDoNotRequireGrad) {
  Tensor x = tensor({1.0, 3.0, 2.0}).requires_grad_();
  EXPECT_FALSE(gt(x, 1).requires_grad());
  EXPECT_FALSE(x.argmax().requires_grad());
  auto [values_, indices] = x.max(0);
  EXPECT_TRUE(values_.requires_grad());
  EXPECT_FALSE(indices.requires_grad());
  EXPECT_FALSE(x.to(kInt64).requires_grad());
}

TEST(Autograd, NodesAreNamedAsTorchNamesThem) {
  Tensor x = ones({2, 2}).requires_grad_();
  EXPECT_STREQ((x + x).grad_fn()->name(), "AddBackward0");
  EXPECT_STREQ(x.mm(x).grad_fn()->name(), "MmBackward0");
  EXPECT_STREQ(x.t().grad_fn()->name(), "TransposeBackward0");
  EXPECT_STREQ(cross_entropy(x, tensor({0, 1})).grad_fn()->name(), "NllLossBackward0");
  EXPECT_STREQ(x.to(kFloat64).grad_fn()->name(), "ToCopyBackward0");
  EXPECT_TRUE(x.to(kFloat32).is_same(x));  // no copy, no node
}

TEST(Autograd, HalfPrecisionGradientsOfTheBackwardKernels) {
  for (Dtype dt : {kFloat16, kBFloat16}) {
    Tensor x = tensor({1.0, 5.0, 3.0, 2.0}, dtype(dt)).requires_grad_();
    (x.index_select(0, tensor({1, 1, 3})) * 2).sum().backward();
    EXPECT_EQ(x.grad().dtype(), dt);
    EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 4, 0, 2}));
    Tensor y = tensor({{1.0, 5.0}, {3.0, 2.0}}, dtype(dt)).requires_grad_();
    std::get<0>(y.max(1)).sum().backward();
    EXPECT_EQ(values(y.grad()), (std::vector<double>{0, 1, 1, 0}));
    Tensor z = tensor({{1.0, 5.0}, {3.0, 2.0}}, dtype(dt)).requires_grad_();
    cross_entropy(z, tensor({1, 0}), {}, Reduction::Sum).backward();
    EXPECT_EQ(z.grad().dtype(), dt);
  }
}

TEST(Autograd, PrintingShowsRequiresGradAndGradFnAsTorch) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  EXPECT_EQ(x.str(), "tensor([1., 2.], requires_grad=True)");
  EXPECT_EQ((x * 2).str(), "tensor([2., 4.], grad_fn=<MulBackward1>)");
  EXPECT_EQ(x.to(kFloat64).str(),
            "tensor([1., 2.], dtype=tide.float64, grad_fn=<ToCopyBackward0>)");
  EXPECT_EQ(x.detach().str(), "tensor([1., 2.])");
}

TEST(Autograd, ALongChainBackpropagatesWithoutRecursion) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor y = x;
  for (int i = 0; i < 20000; ++i) y = y + 1;
  y.sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1}));
}

}  // namespace
}  // namespace tide
