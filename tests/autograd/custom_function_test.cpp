// tide::autograd::Function<T> (include/tide/custom_function.h): forward runs untraced and its
// outputs get one node; backward gets one gradient per output and returns one per argument;
// AutogradContext's saved tensors, needs_input_grad, mark_non_differentiable and
// set_materialize_grads behave as torch's; misuse raises torch's errors.

#include "tide/custom_function.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "autograd/node.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using autograd::AutogradContext;
using test::error_of;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

/// y = k * x^3 with a non-tensor argument k, the derivative from saved x.
struct ScaledCube : autograd::Function<ScaledCube> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, double k) {
    EXPECT_FALSE(GradMode::is_enabled());  // forward's own ops are not recorded
    ctx->save_for_backward({x});
    ctx->saved_data["k"] = k;
    return x.pow(3) * k;
  }
  static std::vector<Tensor> backward(AutogradContext* ctx, std::vector<Tensor> grads) {
    const Tensor x = ctx->get_saved_variables()[0];
    const double k = ctx->saved_data["k"].to_double();
    return {grads[0] * x.pow(2) * (3 * k), Tensor()};
  }
};

TEST(CustomFunction, BackwardCallsTheUsersDerivative) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = ScaledCube::apply(x, 2.0);
  EXPECT_EQ(values(y), (std::vector<double>{2, 16}));
  EXPECT_STREQ(y.grad_fn()->name(), "ScaledCubeBackward");
  (y * tensor({1.0, 10.0})).sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6, 240}));
}

TEST(CustomFunction, WithoutGradientsNeededNoNodeIsRecorded) {
  Tensor y = ScaledCube::apply(tensor({1.0}), 2.0);
  EXPECT_FALSE(y.requires_grad());
  Tensor x = tensor({1.0}).requires_grad_();
  NoGradGuard no_grad;
  EXPECT_FALSE(ScaledCube::apply(x, 2.0).requires_grad());
}

TEST(CustomFunction, ASecondBackwardRaisesUnlessTheGraphWasRetained) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor y = ScaledCube::apply(x, 1.0);
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6}));
  EXPECT_THAT(error_of([&] { y.backward(); }), HasSubstr("backward through the graph a second"));
}

TEST(CustomFunction, AnInPlaceChangeOfASavedTensorRaises) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor h = x * 1.0;
  Tensor y = ScaledCube::apply(h, 1.0);
  h.mul_(2.0);
  EXPECT_THAT(error_of([&] { y.sum().backward(); }),
              HasSubstr("modified by an inplace operation"));
}

/// Two outputs: (x + y, x * y); records which gradients arrived and what was needed.
struct SumAndProduct : autograd::Function<SumAndProduct> {
  static inline std::vector<bool> needs, defined;
  static inline bool materialize = true;
  static std::vector<Tensor> forward(AutogradContext* ctx, const Tensor& x, const Tensor& y) {
    ctx->save_for_backward({x, y});
    ctx->set_materialize_grads(materialize);
    return {x + y, x * y};
  }
  static std::vector<Tensor> backward(AutogradContext* ctx, std::vector<Tensor> g) {
    needs = {ctx->needs_input_grad(0), ctx->needs_input_grad(1)};
    defined = {g[0].defined(), g[1].defined()};
    const std::vector<Tensor> s = ctx->get_saved_variables();
    const Tensor gs = g[0].defined() ? g[0] : zeros_like(s[0]);
    const Tensor gp = g[1].defined() ? g[1] : zeros_like(s[0]);
    return {gs + gp * s[1], gs + gp * s[0]};
  }
};

TEST(CustomFunction, SeveralOutputsGetOneGradientEach) {
  Tensor x = tensor({2.0}).requires_grad_();
  Tensor y = tensor({3.0});
  std::vector<Tensor> out = SumAndProduct::apply(x, y);
  (out[0] * 10 + out[1]).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{13}));  // 10 + y
  EXPECT_EQ(SumAndProduct::needs, (std::vector<bool>{true, false}));
  EXPECT_FALSE(y.grad().defined());
}

TEST(CustomFunction, AnOutputNoGradientReachedGetsZerosOrNothing) {
  Tensor x = tensor({2.0}).requires_grad_();
  SumAndProduct::materialize = true;
  SumAndProduct::apply(x, tensor({3.0}))[1].backward();
  EXPECT_EQ(SumAndProduct::defined, (std::vector<bool>{true, true}));
  SumAndProduct::materialize = false;
  SumAndProduct::apply(x, tensor({3.0}))[1].backward();
  EXPECT_EQ(SumAndProduct::defined, (std::vector<bool>{false, true}));
  SumAndProduct::materialize = true;
  EXPECT_EQ(values(x.grad()), (std::vector<double>{6}));
}

TEST(CustomFunction, AutogradGradCapturesEachOutputOfTheNode) {
  Tensor x = tensor({2.0}).requires_grad_();
  std::vector<Tensor> out = SumAndProduct::apply(x, tensor({3.0}).requires_grad_());
  Tensor loss = out[0] * 5 + out[1] * 7;
  std::vector<Tensor> g = autograd::grad({loss}, {out[1], out[0], x});
  EXPECT_EQ(values(g[0]), (std::vector<double>{7}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{5}));
  EXPECT_EQ(values(g[2]), (std::vector<double>{26}));  // 5 + 7 * 3
}

struct ArgMaxAndMax : autograd::Function<ArgMaxAndMax> {
  static std::vector<Tensor> forward(AutogradContext* ctx, const Tensor& x) {
    Tensor values = x * 1.0;
    Tensor mask = x.gt(0).to(kFloat32);
    ctx->mark_non_differentiable({mask});
    return {values, mask};
  }
  static std::vector<Tensor> backward(AutogradContext*, std::vector<Tensor> g) {
    EXPECT_EQ(values(g[1]), (std::vector<double>{0, 0}));  // materialized zeros
    return {g[0]};
  }
};

TEST(CustomFunction, ANonDifferentiableOutputHasNoHistory) {
  Tensor x = tensor({-1.0f, 2.0f}).requires_grad_();
  std::vector<Tensor> out = ArgMaxAndMax::apply(x);
  EXPECT_TRUE(out[0].requires_grad());
  EXPECT_FALSE(out[1].requires_grad());
  out[0].sum().backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{1, 1}));
}

struct Identity : autograd::Function<Identity> {
  static Tensor forward(AutogradContext*, const Tensor& x) { return x; }
  static std::vector<Tensor> backward(AutogradContext*, std::vector<Tensor> g) {
    return {g[0] * 2};
  }
};

TEST(CustomFunction, AnArgumentReturnedAsItIsGetsANewTensorWithTheHistory) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor y = Identity::apply(x);
  EXPECT_NE(y.impl(), x.impl());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(y.raw_data(), x.raw_data());
  y.backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2}));
}

/// Returns what `make` builds from the incoming gradient: misuse cases.
struct Misbehaving : autograd::Function<Misbehaving> {
  static inline std::function<std::vector<Tensor>(const Tensor&)> make;
  static Tensor forward(AutogradContext*, const Tensor& x, int64_t) { return x * 2; }
  static std::vector<Tensor> backward(AutogradContext*, std::vector<Tensor> g) {
    return make(g[0]);
  }
};

TEST(CustomFunction, WrongGradientsRaiseTorchsErrors) {
  Tensor x = ones({2}).requires_grad_();
  auto run = [&](std::function<std::vector<Tensor>(const Tensor&)> make) {
    Misbehaving::make = std::move(make);
    return error_of([&] { Misbehaving::apply(x, int64_t{1}).sum().backward(); });
  };
  EXPECT_THAT(run([](const Tensor& g) { return std::vector<Tensor>{g}; }),
              HasSubstr("function MisbehavingBackward returned an incorrect number of gradients "
                        "(expected 2, got 1)"));
  EXPECT_THAT(run([](const Tensor&) { return std::vector<Tensor>{ones({3}), Tensor()}; }),
              HasSubstr("Function MisbehavingBackward returned an invalid gradient at index 0 - "
                        "got [3] but expected shape compatible with [2]"));
  EXPECT_THAT(run([](const Tensor& g) { return std::vector<Tensor>{g, g}; }),
              HasSubstr("returned a gradient different than None at position 2, but the "
                        "corresponding forward input was not a Variable"));
  // Extra undefined gradients at the end are fine, as in torch.
  EXPECT_EQ(run([](const Tensor& g) { return std::vector<Tensor>{g, Tensor(), Tensor()}; }),
            "<no error>");
}

}  // namespace
}  // namespace tide
