// nn::Module on cpu: registries and dotted names, registration errors, train/eval, zero_grad,
// dtype moves in place, and a user-defined module built from registered children.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

template <class Named>
std::vector<std::string> names_of(const Named& named) {
  std::vector<std::string> out;
  for (const auto& [name, value] : named) out.push_back(name);
  return out;
}

/// A user module as the libtorch frontend writes them: children, a parameter and a buffer.
struct Net : nn::Cloneable<Net> {
  Net() { reset(); }
  void reset() override {
    fc1 = register_module("fc1", std::make_shared<nn::Linear>(4, 3));
    fc2 = register_module("fc2", std::make_shared<nn::Linear>(3, 2, /*bias=*/false));
    scale = register_parameter("scale", ones({2}));
    steps = register_buffer("steps", zeros({1}, dtype(kInt64)));
  }
  Tensor forward(const Tensor& x) override { return fc2->forward(fc1->forward(x).relu()) * scale; }
  std::shared_ptr<nn::Linear> fc1, fc2;
  Tensor scale, steps;
};

/// A module that registers things by hand, to reach the protected registration API.
struct Bare : nn::Module {
  using nn::Module::register_buffer;
  using nn::Module::register_module;
  using nn::Module::register_parameter;
};

TEST(Module, NamedParametersUseDottedNamesInRegistrationOrder) {
  Net net;
  EXPECT_THAT(names_of(net.named_parameters()),
              ElementsAre("scale", "fc1.weight", "fc1.bias", "fc2.weight"));
  EXPECT_THAT(names_of(net.named_parameters(/*recurse=*/false)), ElementsAre("scale"));
  EXPECT_THAT(names_of(net.named_buffers()), ElementsAre("steps"));
  EXPECT_THAT(names_of(net.named_children()), ElementsAre("fc1", "fc2"));
  // The registry holds the members themselves, not copies.
  const auto params = net.parameters();
  ASSERT_EQ(params.size(), 4u);
  EXPECT_TRUE(params[0].is_same(net.scale));
  EXPECT_TRUE(params[1].is_same(net.fc1->weight));
  EXPECT_TRUE(params[3].is_same(net.fc2->weight));
  EXPECT_TRUE(net.buffers()[0].is_same(net.steps));
  for (const Tensor& p : params) {
    EXPECT_TRUE(p.requires_grad());
    EXPECT_TRUE(p.is_leaf());
  }
  EXPECT_FALSE(net.steps.requires_grad());
}

TEST(Module, SequentialNamesChildrenByPosition) {
  nn::Sequential net(nn::Linear(4, 3), nn::ReLU(), nn::Linear(3, 2));
  EXPECT_EQ(net.size(), 3u);
  EXPECT_THAT(names_of(net.named_parameters()),
              ElementsAre("0.weight", "0.bias", "2.weight", "2.bias"));
  EXPECT_THAT(names_of(net.state_dict()), ElementsAre("0.bias", "0.weight", "2.bias", "2.weight"));
  EXPECT_EQ(net[1].name(), "ReLU");
  EXPECT_EQ(net.name(), "Sequential");
  EXPECT_EQ(net.at<nn::Linear>(2).out_features, 2);
  EXPECT_THAT(error_of([&] { net[3]; }),
              HasSubstr("[nn::Sequential] index 3 is out of range for a Sequential of 3 modules"));
  EXPECT_THAT(error_of([&] { net.at<nn::Linear>(1); }),
              HasSubstr("child 1 is a ReLU, not the type asked for"));
}

TEST(Module, SequentialTakesSharedPointersAndNestsAndPushesBack) {
  auto fc = std::make_shared<nn::Linear>(2, 2);
  auto inner = std::make_shared<nn::Sequential>(fc, nn::ReLU());
  nn::Sequential outer(inner, nn::Linear(2, 1));
  outer.push_back(nn::Dropout(0.1));
  outer.push_back(std::make_shared<nn::Flatten>());
  EXPECT_EQ(outer.size(), 4u);
  EXPECT_THAT(names_of(outer.named_parameters()),
              ElementsAre("0.0.weight", "0.0.bias", "1.weight", "1.bias"));
  EXPECT_TRUE(outer.parameters()[0].is_same(fc->weight));  // shared, not copied
  // A single Sequential argument is a copy, sharing the children (as a Python reference).
  nn::Sequential copy(outer);
  EXPECT_EQ(copy.size(), 4u);
  EXPECT_TRUE(copy.parameters()[0].is_same(fc->weight));
}

TEST(Module, SharedParametersAreListedOnceButSavedUnderEachName) {
  auto fc = std::make_shared<nn::Linear>(3, 3);
  nn::Sequential tied(fc, nn::ReLU(), fc);
  EXPECT_THAT(names_of(tied.named_parameters()), ElementsAre("0.weight", "0.bias"));
  EXPECT_THAT(names_of(tied.state_dict()), ElementsAre("0.bias", "0.weight", "2.bias", "2.weight"));
}

TEST(Module, RegistrationRejectsBadNamesAndTensors) {
  Bare m;
  m.register_parameter("w", zeros({2}));
  EXPECT_THAT(error_of([&] { m.register_parameter("w", zeros({2})); }),
              HasSubstr("[nn::Module::register_parameter] Bare already has a parameter, buffer or "
                        "child named \"w\""));
  EXPECT_THAT(error_of([&] { m.register_buffer("w", zeros({2})); }),
              HasSubstr("already has a parameter, buffer or child named \"w\""));
  EXPECT_THAT(error_of([&] { m.register_parameter("a.b", zeros({2})); }),
              HasSubstr("parameter name can't contain \".\", got \"a.b\""));
  EXPECT_THAT(error_of([&] { m.register_module("", std::make_shared<nn::ReLU>()); }),
              HasSubstr("[nn::Module::register_module] module name can't be empty"));
  EXPECT_THAT(error_of([&] { m.register_module("none", std::shared_ptr<nn::ReLU>()); }),
              HasSubstr("child \"none\" is a null pointer"));
  EXPECT_THAT(error_of([&] { m.register_parameter("i", zeros({2}, dtype(kInt64))); }),
              HasSubstr("parameter \"i\" requires grad, so it must be floating point, but it is int64"));
  const Tensor leaf = ones({2}).requires_grad_();
  EXPECT_THAT(error_of([&] { m.register_parameter("computed", leaf * 2); }),
              HasSubstr("parameter \"computed\" must be a leaf tensor"));
  // An integer parameter that does not require grad is allowed; so is "no parameter".
  m.register_parameter("count", zeros({1}, dtype(kInt64)), /*requires_grad=*/false);
  m.register_parameter("absent", Tensor());
  EXPECT_THAT(names_of(m.named_parameters()), ElementsAre("w", "count"));
  EXPECT_FALSE(m.parameters()[1].requires_grad());
}

TEST(Module, TrainAndEvalReachEveryDescendant) {
  Net net;
  EXPECT_TRUE(net.is_training());
  EXPECT_TRUE(net.fc1->is_training());
  net.eval();
  EXPECT_FALSE(net.is_training());
  EXPECT_FALSE(net.fc1->is_training());
  EXPECT_FALSE(net.fc2->is_training());
  net.train();
  EXPECT_TRUE(net.fc2->is_training());
  net.train(false);
  EXPECT_FALSE(net.fc2->is_training());
}

TEST(Module, ForwardOfTheBaseClassAndLossesWithOneInputThrow) {
  Bare m;
  EXPECT_THAT(error_of([&] { m(ones({1})); }),
              HasSubstr("Module [Bare] is missing the required \"forward\" function"));
  nn::MSELoss mse;
  nn::Module& as_module = mse;
  EXPECT_THAT(error_of([&] { as_module(ones({1})); }),
              HasSubstr("[nn::MSELoss] a loss takes (input, target), got only an input"));
}

TEST(Module, ZeroGradSetsToNoneOrZeroesInPlace) {
  Net net;
  net.forward(ones({5, 4})).sum().backward();
  std::vector<std::vector<double>> first;
  for (const Tensor& p : net.parameters()) {
    ASSERT_TRUE(p.grad().defined());
    first.push_back(values(p.grad()));
  }
  const Tensor old_grad = net.fc1->weight.grad();
  net.zero_grad(/*set_to_none=*/false);
  for (const Tensor& p : net.parameters()) {
    ASSERT_TRUE(p.grad().defined());
    for (double v : values(p.grad())) EXPECT_EQ(v, 0.0);
  }
  EXPECT_TRUE(net.fc1->weight.grad().is_same(old_grad));  // zeroed in place, same tensor
  // Zeroed, not dropped: the next backward accumulates into zeros, giving the first gradients.
  net.forward(ones({5, 4})).sum().backward();
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(values(net.parameters()[i].grad()), first[i]);
  net.zero_grad();
  for (const Tensor& p : net.parameters()) EXPECT_FALSE(p.grad().defined());
  net.zero_grad();  // nothing to do: no error
}

TEST(Module, ToDtypeConvertsFloatingTensorsInPlaceAndLeavesIntegersAlone) {
  Net net;
  const Tensor w = net.fc1->weight;
  const std::vector<double> before = values(w);
  net.forward(ones({2, 4})).sum().backward();
  net.to(kFloat64);
  EXPECT_EQ(w.dtype(), kFloat64);  // the handle taken before the move sees it
  EXPECT_TRUE(net.fc1->weight.is_same(w));
  EXPECT_EQ(values(w), before);
  EXPECT_EQ(w.grad().dtype(), kFloat64);  // the gradient follows, as torch
  EXPECT_EQ(net.steps.dtype(), kInt64);
  EXPECT_TRUE(w.requires_grad());
  EXPECT_EQ(net.forward(ones({2, 4}, dtype(kFloat64))).dtype(), kFloat64);
  EXPECT_THAT(error_of([&] { net.to(kInt32); }),
              HasSubstr("[nn::Module::to] nn.Module.to only accepts floating point dtypes, but got "
                        "desired dtype=int32"));
}

TEST(Module, MovingToTheDeviceItIsOnKeepsTheStorage) {
  nn::Linear fc(2, 2);
  const void* data = fc.weight.raw_data();
  fc.cpu();
  fc.to("cpu");
  fc.to(Device(kCPU), kFloat32);
  EXPECT_EQ(fc.weight.raw_data(), data);
  EXPECT_THAT(error_of([&] { fc.cuda(Device(kCPU)); }),
              HasSubstr("[nn::Module::cuda] expected a cuda device, got cpu"));
}

TEST(Module, CloneOfAModuleThatIsNotCloneableSaysWhatToDo) {
  Bare m;
  EXPECT_THAT(error_of([&] { m.clone(); }),
              HasSubstr("clone() has not been implemented for Bare. Derive it from "
                        "nn::Cloneable<Bare>"));
  nn::Sequential seq(std::make_shared<Bare>());
  EXPECT_THAT(error_of([&] { seq.clone(); }), HasSubstr("not been implemented for Bare"));
}

}  // namespace
}  // namespace tide
