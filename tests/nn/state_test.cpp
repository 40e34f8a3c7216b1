// state_dict / load_state_dict (round trips, every strict-mode error in torch's wording) and
// clone (deep, independent copies of every module type).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

nn::Sequential mlp() { return nn::Sequential(nn::Linear(4, 3), nn::ReLU(), nn::Linear(3, 2)); }

/// A module with a buffer beside its children.
struct Counter : nn::Cloneable<Counter> {
  Counter() { reset(); }
  void reset() override {
    fc = register_module("fc", std::make_shared<nn::Linear>(2, 2));
    seen = register_buffer("seen", zeros({1}, dtype(kInt64)));
  }
  Tensor forward(const Tensor& x) override { return fc->forward(x); }
  std::shared_ptr<nn::Linear> fc;
  Tensor seen;
};

TEST(StateDict, HoldsParametersAndBuffersDetachedAndSharingStorage) {
  Counter m;
  const auto state = m.state_dict();
  ASSERT_EQ(state.size(), 3u);
  EXPECT_EQ(state.at("fc.weight").sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_FALSE(state.at("fc.weight").requires_grad());
  EXPECT_EQ(state.at("fc.weight").raw_data(), m.fc->weight.raw_data());
  EXPECT_EQ(state.at("seen").dtype(), kInt64);
}

TEST(StateDict, RoundTripCopiesValuesIntoTheExistingTensors) {
  manual_seed(1);
  nn::Sequential a = mlp();
  manual_seed(2);
  nn::Sequential b = mlp();
  const Tensor b_weight = b.at<nn::Linear>(0).weight;
  ASSERT_NE(values(b_weight), values(a.at<nn::Linear>(0).weight));
  b.load_state_dict(a.state_dict());
  EXPECT_TRUE(b.at<nn::Linear>(0).weight.is_same(b_weight));  // copied into, not replaced
  EXPECT_TRUE(b_weight.requires_grad());
  EXPECT_TRUE(b_weight.is_leaf());
  for (const auto& [key, t] : a.state_dict()) EXPECT_EQ(values(b.state_dict().at(key)), values(t));
  // Independent storage: changing a afterwards leaves b alone.
  {
    NoGradGuard no_grad;
    a.at<nn::Linear>(0).weight.fill_(7.0);
  }
  EXPECT_NE(values(b_weight)[0], 7.0);
  const Tensor x = randn({5, 4});
  manual_seed(1);
  EXPECT_EQ(values(b(x)), values(mlp()(x)));
}

TEST(StateDict, LoadingConvertsDtypes) {
  nn::Linear a(2, 2), b(2, 2);
  auto state = a.state_dict();
  for (auto& [key, t] : state) t = t.to(kFloat64);
  b.load_state_dict(state);
  EXPECT_EQ(b.weight.dtype(), kFloat32);
  EXPECT_EQ(values(b.weight), values(a.weight));
}

TEST(StateDict, StrictModeNamesMissingAndUnexpectedKeysAndSizeMismatchesInOneError) {
  nn::Sequential net = mlp();
  const std::vector<double> before = values(net.at<nn::Linear>(0).weight);
  auto state = net.state_dict();
  state.erase("0.bias");
  state.erase("2.weight");
  state["5.weight"] = zeros({1});
  state["0.weight"] = zeros({3, 5});
  state["2.bias"] = zeros({3});
  const std::string message = error_of([&] { net.load_state_dict(state); });
  EXPECT_THAT(message,
              HasSubstr("[nn::Module::load_state_dict] Error(s) in loading state_dict for "
                        "Sequential:\n\tMissing key(s) in state_dict: \"0.bias\", \"2.weight\". \n\t"
                        "Unexpected key(s) in state_dict: \"5.weight\". \n\t"
                        "size mismatch for 0.weight: copying a param with shape [3, 5] from "
                        "checkpoint, the shape in current model is [3, 4].\n\t"
                        "size mismatch for 2.bias: copying a param with shape [3] from "
                        "checkpoint, the shape in current model is [2]."));
  EXPECT_THAT(message, HasSubstr("Nothing was loaded"));
  EXPECT_THAT(message, HasSubstr("pass strict = false"));
  EXPECT_EQ(values(net.at<nn::Linear>(0).weight), before);  // nothing copied
}

TEST(StateDict, EachStrictErrorAlone) {
  nn::Linear fc(2, 2);
  auto missing = fc.state_dict();
  missing.erase("bias");
  EXPECT_THAT(error_of([&] { fc.load_state_dict(missing); }),
              HasSubstr("Error(s) in loading state_dict for Linear:\n\tMissing key(s) in "
                        "state_dict: \"bias\". "));
  auto unexpected = fc.state_dict();
  unexpected["extra"] = zeros({1});
  const std::string u = error_of([&] { fc.load_state_dict(unexpected); });
  EXPECT_THAT(u, HasSubstr("for Linear:\n\tUnexpected key(s) in state_dict: \"extra\". "));
  EXPECT_THAT(u, Not(HasSubstr("Missing")));
  auto wrong = fc.state_dict();
  wrong["weight"] = zeros({2});
  const std::string w = error_of([&] { fc.load_state_dict(wrong); });
  EXPECT_THAT(w, HasSubstr("for Linear:\n\tsize mismatch for weight: copying a param with shape "
                           "[2] from checkpoint, the shape in current model is [2, 2]."));
  EXPECT_THAT(w, Not(HasSubstr("strict = false")));
  auto undefined = fc.state_dict();
  undefined["bias"] = Tensor();
  EXPECT_THAT(error_of([&] { fc.load_state_dict(undefined); }),
              HasSubstr("undefined tensor for bias"));
}

TEST(StateDict, NonStrictModeSkipsMissingAndUnexpectedKeysButNotSizeMismatches) {
  nn::Linear src(2, 2), dst(2, 2);
  auto state = src.state_dict();
  state.erase("bias");
  state["extra"] = zeros({1});
  const std::vector<double> bias_before = values(dst.bias);
  dst.load_state_dict(state, /*strict=*/false);
  EXPECT_EQ(values(dst.weight), values(src.weight));
  EXPECT_EQ(values(dst.bias), bias_before);
  state["weight"] = zeros({3});
  EXPECT_THAT(error_of([&] { dst.load_state_dict(state, false); }),
              HasSubstr("size mismatch for weight: copying a param with shape [3]"));
}

TEST(StateDict, BuffersRoundTrip) {
  Counter a, b;
  {
    NoGradGuard no_grad;
    a.seen.fill_(41);
  }
  b.load_state_dict(a.state_dict());
  EXPECT_EQ(b.seen.item<int64_t>(), 41);
}

TEST(Clone, IsADeepIndependentCopyWithTheSameValuesAndFlags) {
  manual_seed(3);
  nn::Sequential net(nn::Linear(4, 3), nn::ReLU(), nn::Dropout(0.25), nn::Flatten(0),
                     std::make_shared<Counter>());
  net.at<Counter>(4).seen.fill_(5);
  net[2].eval();
  const auto copy = std::static_pointer_cast<nn::Sequential>(net.clone());
  ASSERT_EQ(copy->size(), 5u);
  const auto ours = net.named_parameters(), theirs = copy->named_parameters();
  ASSERT_EQ(ours.size(), theirs.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i].first, theirs[i].first);
    EXPECT_FALSE(ours[i].second.is_same(theirs[i].second));
    EXPECT_NE(ours[i].second.raw_data(), theirs[i].second.raw_data());
    EXPECT_EQ(values(ours[i].second), values(theirs[i].second));
    EXPECT_TRUE(theirs[i].second.requires_grad());
    EXPECT_TRUE(theirs[i].second.is_leaf());
  }
  // The members of the cloned modules are the clone's registered tensors.
  EXPECT_TRUE(copy->at<nn::Linear>(0).weight.is_same(theirs[0].second));
  EXPECT_TRUE(copy->at<Counter>(4).fc->weight.is_same(copy->named_parameters()[2].second));
  EXPECT_EQ(copy->at<Counter>(4).seen.item<int64_t>(), 5);
  EXPECT_FALSE(copy->at<Counter>(4).seen.is_same(net.at<Counter>(4).seen));
  EXPECT_EQ(copy->at<nn::Dropout>(2).p, 0.25);
  EXPECT_FALSE(copy->at<nn::Dropout>(2).is_training());
  EXPECT_TRUE(copy->at<nn::Linear>(0).is_training());
  EXPECT_EQ(copy->at<nn::Flatten>(3).start_dim, 0);
  // Independence: training one does not touch the other.
  {
    NoGradGuard no_grad;
    net.at<nn::Linear>(0).weight.fill_(0);
    net.at<Counter>(4).seen.fill_(9);
  }
  EXPECT_NE(values(copy->at<nn::Linear>(0).weight), values(net.at<nn::Linear>(0).weight));
  EXPECT_EQ(copy->at<Counter>(4).seen.item<int64_t>(), 5);
}

TEST(Clone, ConsumesNoRandomNumbersAndKeepsFrozenParameters) {
  nn::Linear fc(3, 2, /*bias=*/false);
  fc.weight.requires_grad_(false);
  manual_seed(11);
  const auto copy = std::static_pointer_cast<nn::Linear>(fc.clone());
  const Tensor after_clone = rand({4});
  manual_seed(11);
  EXPECT_EQ(values(rand({4})), values(after_clone));
  EXPECT_FALSE(copy->bias.defined());
  EXPECT_FALSE(copy->has_bias);
  EXPECT_FALSE(copy->weight.requires_grad());
  EXPECT_EQ(copy->named_parameters().size(), 1u);
}

TEST(Clone, LossesCloneTheirWeightBuffer) {
  nn::CrossEntropyLoss criterion(tensor({1.0, 2.0, 3.0}), Reduction::Sum, 1);
  const auto copy = std::static_pointer_cast<nn::CrossEntropyLoss>(criterion.clone());
  EXPECT_EQ(values(copy->weight), (std::vector<double>{1, 2, 3}));
  EXPECT_NE(copy->weight.raw_data(), criterion.weight.raw_data());
  EXPECT_TRUE(copy->buffers()[0].is_same(copy->weight));
  EXPECT_EQ(copy->reduction, Reduction::Sum);
  EXPECT_EQ(copy->ignore_index, 1);
  const auto mse = std::static_pointer_cast<nn::MSELoss>(nn::MSELoss(Reduction::None).clone());
  EXPECT_EQ(mse->reduction, Reduction::None);
}

/// A Cloneable whose reset() forgets a parameter the module has.
struct Forgetful : nn::Cloneable<Forgetful> {
  Forgetful() {
    reset();
    register_parameter("late", zeros({1}));
  }
  void reset() override { register_parameter("early", zeros({1})); }
};

TEST(Clone, AResetThatRegistersOtherTensorsIsAnError) {
  Forgetful f;
  EXPECT_THAT(error_of([&] { f.clone(); }),
              HasSubstr("[nn::Cloneable::clone] Forgetful::reset() registered other parameters, "
                        "buffers or children than the module holds"));
}

}  // namespace
}  // namespace tide
