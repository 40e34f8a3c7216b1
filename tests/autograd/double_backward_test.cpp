// Double backward (create_graph, Note [create_graph] in src/autograd/engine.h): second
// derivatives against central differences (tests/support/gradgradcheck.h) for a representative
// set of ops, a gradient penalty and a Hessian-vector product against closed forms, saved
// outputs that keep no cycle (Note [Saved outputs and double backward]), and the error a second
// backward raises at a node that is differentiable once only.

#include "support/gradgradcheck.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "support/error_of.h"
#include "tide/custom_function.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using test::gradgradcheck;
using test::rnd;
using ::testing::HasSubstr;
using V = const std::vector<Tensor>&;

Tensor positive(std::vector<int64_t> shape, uint64_t seed) {
  manual_seed(seed);
  return rand(std::move(shape), dtype(kFloat64)) + 0.5;
}

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

Tensor f64(const NestedList& data) { return tensor(data, dtype(kFloat64)); }

/// Element by element within 1e-12 (the closed forms round differently from the graph).
void expect_near(const Tensor& got, const std::vector<double>& expected) {
  const std::vector<double> g = values(got);
  ASSERT_EQ(g.size(), expected.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], expected[i], 1e-12) << "element " << i;
}

TEST(DoubleBackward, ArithmeticOpsHaveTheSecondDerivativesOfFiniteDifferences) {
  EXPECT_TRUE(gradgradcheck([](V x) { return add(x[0], x[1], 2.5) * x[1]; },
                            {rnd({2, 3}, 1), rnd({3}, 2)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return sub(x[0], x[1], 0.5) * x[0]; },
                            {rnd({2, 3}, 3), rnd({2, 3}, 4)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return x[0] * x[1] * x[0]; }, {rnd({2, 3}, 5), rnd({3}, 6)}));
  EXPECT_TRUE(
      gradgradcheck([](V x) { return x[0] / x[1]; }, {rnd({2, 3}, 7), positive({2, 3}, 8)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return 2.0 / x[0]; }, {positive({4}, 9)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return pow(x[0], x[1]); },
                            {positive({2, 3}, 10), rnd({2, 3}, 11)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return pow(x[0], 3); }, {rnd({4}, 12)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return pow(2.0, x[0]); }, {rnd({4}, 13)}));
}

TEST(DoubleBackward, UnaryOpsIncludingThoseThatSaveTheirOutput) {
  // exp, tanh, sigmoid and sqrt save their result: its history is re-attached on unpack.
  EXPECT_TRUE(gradgradcheck([](V x) { return exp(x[0]); }, {rnd({5}, 20)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return log(x[0]); }, {positive({5}, 21)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return tanh(x[0]); }, {rnd({5}, 22)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return sigmoid(x[0]); }, {rnd({5}, 23)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return sin(x[0]); }, {rnd({5}, 24)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return sqrt(x[0]); }, {positive({5}, 25)}));
  // relu's second derivative is 0; through relu(x) * x it is 2 where x > 0.
  EXPECT_TRUE(gradgradcheck([](V x) { return relu(x[0]) * x[0]; }, {rnd({8}, 26)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return gelu(x[0]); }, {rnd({6}, 27)}));
}

TEST(DoubleBackward, InPlaceOpsDifferentiateTheValueBeforeTheWrite) {
  EXPECT_TRUE(gradgradcheck(
      [](V x) {
        Tensor y = x[0] * 1.0;
        y.log_();  // saves y before the write: a recorded clone
        return y * x[0];
      },
      {positive({4}, 30)}));
  EXPECT_TRUE(gradgradcheck(
      [](V x) {
        Tensor y = x[0] * 2.0;
        y.mul_(x[1]);
        return y * y;
      },
      {rnd({3}, 31), rnd({3}, 32)}));
}

TEST(DoubleBackward, MatrixProducts) {
  EXPECT_TRUE(gradgradcheck([](V x) { return x[0].mm(x[1]).tanh(); },
                            {rnd({2, 3}, 40), rnd({3, 4}, 41)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return x[0].matmul(x[1]) * x[0].sum(); },
                            {rnd({2, 2, 3}, 42), rnd({3, 2}, 43)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return linear(x[0], x[1], x[2]).sigmoid(); },
                            {rnd({4, 3}, 44), rnd({2, 3}, 45), rnd({2}, 46)}));
}

TEST(DoubleBackward, Reductions) {
  EXPECT_TRUE(gradgradcheck([](V x) { return x[0].sum(1) * x[0].mean(); }, {rnd({3, 4}, 50)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return x[0].mean({0}, true).pow(2); }, {rnd({3, 4}, 51)}));
  // max along a dim: the gradient is a recorded scatter under create_graph.
  EXPECT_TRUE(gradgradcheck([](V x) { return std::get<0>(x[0].max(1)).pow(2); },
                            {rnd({3, 4}, 52)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return std::get<0>(x[0].sort(1)) * x[0]; },
                            {rnd({2, 5}, 53)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return x[0].index_select(0, tensor({2, 0, 2})).exp(); },
                            {rnd({3, 2}, 54)}));
}

TEST(DoubleBackward, LossesAndSoftmax) {
  EXPECT_TRUE(gradgradcheck([](V x) { return mse_loss(x[0].tanh(), x[1]); },
                            {rnd({3, 4}, 60), rnd({3, 4}, 61)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return softmax(x[0], 1); }, {rnd({2, 4}, 62)}));
  EXPECT_TRUE(gradgradcheck([](V x) { return log_softmax(x[0], 0); }, {rnd({3, 2}, 63)}));
  const Tensor target = tensor({0, 2, 1, 2});
  EXPECT_TRUE(gradgradcheck([target](V x) { return cross_entropy(x[0], target); },
                            {rnd({4, 3}, 64)}));
  const Tensor weight = positive({3}, 65);
  EXPECT_TRUE(gradgradcheck(
      [target, weight](V x) { return cross_entropy(x[0], target, weight, Reduction::Sum, 1); },
      {rnd({4, 3}, 66)}));
}

TEST(DoubleBackward, AGradientPenaltyMatchesItsClosedForm) {
  // loss = sum(w x^2) + |d loss0/dx|^2 with d/dx = 2 w x: d/dx = 2 w x + 8 w^2 x,
  // d/dw = x^2 + 8 w x^2.
  const Tensor x = f64({1.0, -2.0, 0.5}).requires_grad_();
  const Tensor w = f64({0.5, 1.5, -1.0}).requires_grad_();
  const Tensor loss0 = (w * x * x).sum();
  const Tensor gx = autograd::grad({loss0}, {x}, {}, std::nullopt, false, true)[0];
  EXPECT_TRUE(gx.requires_grad());
  expect_near(gx, values(2 * w.detach() * x.detach()));
  (loss0 + (gx * gx).sum()).backward();
  const Tensor xv = x.detach(), wv = w.detach();
  expect_near(x.grad(), {2 * 0.5 * 1.0 + 8 * 0.25 * 1.0, 2 * 1.5 * -2.0 + 8 * 2.25 * -2.0,
                         2 * -1.0 * 0.5 + 8 * 1.0 * 0.5});
  expect_near(w.grad(), values(xv * xv + 8 * wv * xv * xv));
}

TEST(DoubleBackward, AHessianVectorProductMatchesItsClosedForm) {
  // f = sum(x^3) + (sum x)^2: H = diag(6 x) + 2 (all ones), so H v = 6 x v + 2 sum(v).
  const Tensor x = f64({1.0, -2.0, 0.5, 3.0}).requires_grad_();
  const Tensor v = f64({0.5, 1.0, -1.0, 2.0});
  const Tensor f = x.pow(3).sum() + x.sum().pow(2);
  const Tensor g = autograd::grad({f}, {x}, {}, std::nullopt, false, true)[0];
  const Tensor hv = autograd::grad({(g * v).sum()}, {x})[0];
  // sum(v) = 2.5
  expect_near(hv, {6 * 1.0 * 0.5 + 5, 6 * -2.0 * 1.0 + 5, 6 * 0.5 * -1.0 + 5, 6 * 3.0 * 2.0 + 5});
}

TEST(DoubleBackward, BackwardWithCreateGraphAccumulatesAGradientThatHasAGraph) {
  // torch's pattern: y = x^3; y.backward(create_graph) gives grad 3 x^2 with a graph.
  Tensor x = f64({2.0, -1.0}).requires_grad_();
  x.pow(3).sum().backward({}, std::nullopt, /*create_graph=*/true);
  const Tensor first = x.grad();
  ASSERT_TRUE(first.requires_grad());
  expect_near(first, {12.0, 3.0});
  x.mutable_grad() = Tensor();
  first.sum().backward();
  expect_near(x.grad(), {12.0, -6.0});  // 6 x
}

TEST(DoubleBackward, RetainGraphDefaultsToCreateGraph) {
  const Tensor x = f64({1.5, 2.0}).requires_grad_();
  const Tensor y = (x * x).sum();  // MulBackward0 saves x twice
  autograd::grad({y}, {x}, {}, std::nullopt, false, /*create_graph=*/true);
  // The graph was kept: a second pass reads the saved tensors again.
  expect_near(autograd::grad({y}, {x})[0], {3.0, 4.0});
  // That one freed them (retain_graph defaults to false without create_graph).
  EXPECT_THAT(error_of([&] { autograd::grad({y}, {x}); }),
              HasSubstr("Trying to backward through the graph a second time"));
}

TEST(DoubleBackward, ASavedOutputMakesNoCycleWithItsNode) {
  std::weak_ptr<autograd::Node> node;
  {
    const Tensor x = f64({0.5}).requires_grad_();
    Tensor y = x.exp();  // ExpBackward0 saves y
    node = y.grad_fn();
    ASSERT_FALSE(node.expired());
  }
  EXPECT_TRUE(node.expired());  // y's node died with y: the saved y holds its node weakly
}

TEST(DoubleBackward, ASavedTensorModifiedInPlaceStillRaisesUnderCreateGraph) {
  const Tensor x = f64({1.0, 2.0}).requires_grad_();
  Tensor y = x * 1.0;
  const Tensor z = (y.exp() * y).sum();
  y.add_(1.0);
  EXPECT_THAT(error_of([&] { autograd::grad({z}, {x}, {}, std::nullopt, false, true); }),
              HasSubstr("modified by an inplace operation"));
}

TEST(DoubleBackward, ASecondBackwardThroughAOnceDifferentiableNodeRaisesNamingIt) {
  const Tensor x = rnd({1, 1, 4, 4}, 70).requires_grad_();
  const Tensor w = rnd({1, 1, 3, 3}, 71).requires_grad_();
  const Tensor y = conv2d(x, w).pow(2).sum();
  const Tensor gx = autograd::grad({y}, {x}, {}, std::nullopt, false, true)[0];
  ASSERT_TRUE(gx.requires_grad());  // no silent zero: the gradient leads to the error node
  EXPECT_THAT(error_of([&] { gx.sum().backward(); }),
              HasSubstr("the derivative for 'ConvolutionBackward0' is not implemented"));

  const Tensor p = positive({3}, 72).requires_grad_();
  const Tensor gp = autograd::grad({p.digamma().sum()}, {p}, {}, std::nullopt, false, true)[0];
  EXPECT_THAT(error_of([&] { autograd::grad({gp.sum()}, {p}); }),
              HasSubstr("the derivative for 'DigammaBackward0' is not implemented"));
}

TEST(DoubleBackward, FirstBackwardOfAOnceDifferentiableNodeIsUnchanged) {
  const Tensor x = rnd({1, 1, 4, 4}, 73).requires_grad_();
  const Tensor w = rnd({1, 1, 3, 3}, 74);
  const Tensor plain = autograd::grad({conv2d(x, w).sum()}, {x})[0];
  const Tensor graphed =
      autograd::grad({conv2d(x, w).sum()}, {x}, {}, std::nullopt, false, true)[0];
  EXPECT_EQ(values(plain), values(graphed));
}

/// y = x^3 with its derivative written with ops: differentiable again under create_graph.
struct Cube : autograd::Function<Cube> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& x) {
    ctx->save_for_backward({x});
    return x.pow(3);
  }
  static std::vector<Tensor> backward(autograd::AutogradContext* ctx, std::vector<Tensor> grads) {
    const Tensor x = ctx->get_saved_variables()[0];
    return {grads[0] * 3 * x * x};
  }
};

/// y = exp(x), saving its output: the saved output's history is the custom node.
struct Exp : autograd::Function<Exp> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& x) {
    Tensor y = x.exp();
    ctx->save_for_backward({y});
    return y;
  }
  static std::vector<Tensor> backward(autograd::AutogradContext* ctx, std::vector<Tensor> grads) {
    return {grads[0] * ctx->get_saved_variables()[0]};
  }
};

TEST(DoubleBackward, CustomFunctionsBackwardRunsWithGradModeSoItRecords) {
  const Tensor x = f64({2.0, -0.5}).requires_grad_();
  const Tensor g = autograd::grad({Cube::apply(x).sum()}, {x}, {}, std::nullopt, false, true)[0];
  expect_near(g, {12.0, 0.75});
  expect_near(autograd::grad({g.sum()}, {x})[0], {12.0, -3.0});

  const Tensor e = autograd::grad({Exp::apply(x).sum()}, {x}, {}, std::nullopt, false, true)[0];
  expect_near(autograd::grad({e.sum()}, {x})[0], values(x.detach().exp()));
}

}  // namespace
}  // namespace tide
