// Optimizer::state_dict and load_state_dict (Note [Optimizer state_dict]): torch 1.13's layout,
// a round trip through torch's file format that resumes exactly, torch's own file loaded, and
// loads refused changing nothing. tests/serialize/torch_format_test.cpp has torch read one.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/error_of.h"
#include "support/test_paths.h"
#include "tide/tide.h"

using namespace tide;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using test::error_of;

namespace {

std::vector<std::string> keys(const IValue& dict) {
  std::vector<std::string> out;
  for (const auto& [k, v] : dict.to_dict().items) out.push_back(k.is_string() ? k.to_string() : "?");
  return out;
}

/// One step with the gradient of sum(w * w * k) for each parameter.
void step_once(optim::Optimizer& opt, std::vector<Tensor>& params, float k) {
  opt.zero_grad();
  for (Tensor& w : params) (w * w * k).sum().backward();
  opt.step();
}

std::vector<Tensor> two_params() {
  return {(arange(6, dtype(kFloat32)).reshape({2, 3}) / 4 - 0.5).requires_grad_(),
          tensor({0.25f, -1.5f}).requires_grad_()};
}

std::vector<Tensor> copies(const std::vector<Tensor>& params) {
  std::vector<Tensor> out;
  for (const Tensor& p : params) out.push_back(p.detach().clone().requires_grad_());
  return out;
}

}  // namespace

TEST(OptimizerStateDict, HasTorchsLayoutAndHyperparametersInTorchsOrder) {
  std::vector<Tensor> params = two_params();
  optim::SGD sgd(params, optim::SGDOptions(0.5).momentum(0.9));
  IValue before = sgd.state_dict();
  EXPECT_THAT(keys(before), ElementsAre("state", "param_groups"));
  EXPECT_TRUE(before.at("state").to_dict().items.empty());  // no step yet: no state
  step_once(sgd, params, 1.0f);
  const IValue sd = sgd.state_dict();
  const IValue& group = sd.at("param_groups").to_list().at(0);
  EXPECT_THAT(keys(group), ElementsAre("lr", "momentum", "dampening", "weight_decay", "nesterov",
                                       "maximize", "foreach", "differentiable", "params"));
  EXPECT_EQ(group.at("lr").to_double(), 0.5);
  EXPECT_TRUE(group.at("foreach").is_none());
  EXPECT_TRUE(group.at("params") == IValue(IValue::List{0, 1}));
  // The optimizer's own buffer, keyed by the parameter's index.
  EXPECT_TRUE(sd.at("state").at(1).at("momentum_buffer").to_tensor().is_same(
      sgd.param_state(1).at(0).second));

  optim::Adam adam(params, optim::AdamOptions(0.1).betas({0.8, 0.99}));
  EXPECT_THAT(keys(adam.state_dict().at("param_groups").to_list().at(0)),
              ElementsAre("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach",
                          "capturable", "differentiable", "fused", "params"));
  EXPECT_TRUE(adam.state_dict().at("param_groups").to_list().at(0).at("betas") ==
              IValue::tuple({0.8, 0.99}));
}

TEST(OptimizerStateDict, RMSpropsStepIsAnIntAsInTorch113) {
  std::vector<Tensor> params = two_params();
  optim::RMSprop rms(params, optim::RMSpropOptions(0.01).momentum(0.5));
  step_once(rms, params, 1.0f);
  step_once(rms, params, 1.0f);
  const IValue sd = rms.state_dict();
  const IValue& state = sd.at("state").at(0);
  EXPECT_THAT(keys(state), ElementsAre("step", "square_avg", "momentum_buffer"));
  EXPECT_TRUE(state.at("step") == IValue(2));
}

// Saved through torch's file format and loaded into a fresh optimizer over copies of the
// parameters, the state resumes exactly: the next steps give the same bits.
TEST(OptimizerStateDict, ARoundTripThroughTorchsFormatResumesExactly) {
  auto resume = [](auto make) {
    std::vector<Tensor> params = two_params();
    auto original = make(params);
    for (int i = 0; i < 3; ++i) step_once(original, params, 1.0f + i);
    const IValue loaded = pickle_load(
        [&] { const auto b = pickle_save(original.state_dict()); return std::string(b.begin(), b.end()); }());
    std::vector<Tensor> again = copies(params);
    auto resumed = make(again);
    resumed.load_state_dict(loaded);
    step_once(original, params, 0.5f);
    step_once(resumed, again, 0.5f);
    for (size_t i = 0; i < params.size(); ++i) {
      EXPECT_EQ(params[i].tolist<float>(), again[i].tolist<float>()) << "parameter " << i;
    }
  };
  resume([](std::vector<Tensor>& p) { return optim::SGD(p, optim::SGDOptions(0.1).momentum(0.9).nesterov(true)); });
  resume([](std::vector<Tensor>& p) { return optim::Adam(p, optim::AdamOptions(0.1).amsgrad(true)); });
  resume([](std::vector<Tensor>& p) { return optim::AdamW(p, optim::AdamWOptions(0.05)); });
  resume([](std::vector<Tensor>& p) { return optim::RMSprop(p, optim::RMSpropOptions(0.01).centered(true).momentum(0.3)); });
  resume([](std::vector<Tensor>& p) { return optim::Adagrad(p, optim::AdagradOptions(0.1).lr_decay(0.01)); });
}

TEST(OptimizerStateDict, LoadsTheHyperparametersWithTheState) {
  std::vector<Tensor> params = two_params();
  optim::Adam source(params, optim::AdamOptions(0.25).betas({0.7, 0.95}).weight_decay(0.125));
  optim::Adam target(copies(params));
  target.load_state_dict(source.state_dict());
  EXPECT_EQ(target.options().lr(), 0.25);
  EXPECT_EQ(std::get<0>(target.options().betas()), 0.7);
  EXPECT_EQ(target.options().weight_decay(), 0.125);
}

// scripts/gen_torch_save_fixture.py: torch 1.13's SGD (lr 0.5, momentum 0.9) after one step
// of a Linear(3, 2) whose gradients are all ones.
TEST(OptimizerStateDict, LoadsTheStateDictOfTorch113sSgd) {
  const IValue file = torch_load(test::path_from_env("TIDE_TEST_DATA_DIR", TIDE_TEST_DATA_DIR) +
                                 "/torch_save/fixture.pt");
  nn::Linear linear(3, 2);
  optim::SGD sgd(linear.parameters(), optim::SGDOptions(0.01));
  sgd.load_state_dict(file.at("optimizer"));
  EXPECT_EQ(sgd.options().lr(), 0.5);
  EXPECT_EQ(sgd.options().momentum(), 0.9);
  EXPECT_EQ(sgd.param_state(0).at(0).second.tolist<float>(), std::vector<float>(6, 1.0f));
  EXPECT_EQ(sgd.param_state(1).at(0).second.tolist<float>(), std::vector<float>(2, 1.0f));
}

TEST(OptimizerStateDict, AStateDictThatDoesNotFitIsRefusedChangingNothing) {
  std::vector<Tensor> params = two_params();
  optim::Adam adam(params, optim::AdamOptions(0.1));
  step_once(adam, params, 1.0f);
  const std::vector<float> exp_avg = adam.param_state(0).at(1).second.tolist<float>();

  optim::Adam other(params, optim::AdamOptions(0.3));
  step_once(other, params, 5.0f);
  IValue sd = other.state_dict();
  sd.at("param_groups").to_list().at(0).at("params").to_list().pop_back();
  EXPECT_THAT(error_of([&] { adam.load_state_dict(sd); }),
              HasSubstr("has a group of 1 parameters, and this optimizer 2"));

  IValue bad_lr = other.state_dict();
  for (auto& [k, v] : bad_lr.at("param_groups").to_list().at(0).to_dict().items) {
    if (k.to_string() == "lr") v = IValue(-1.0);
  }
  EXPECT_THAT(error_of([&] { adam.load_state_dict(bad_lr); }), HasSubstr("lr"));

  IValue bad_state = other.state_dict();
  for (auto& [k, v] : bad_state.at("state").at(1).to_dict().items) {
    if (k.to_string() == "exp_avg") v = IValue(zeros({5}));
  }
  EXPECT_THAT(error_of([&] { adam.load_state_dict(bad_state); }), HasSubstr("shape"));

  EXPECT_EQ(adam.options().lr(), 0.1);
  EXPECT_EQ(adam.param_state(0).at(1).second.tolist<float>(), exp_avg);
  EXPECT_THAT(error_of([&] { adam.load_state_dict(IValue(3)); }),
              HasSubstr("expected a dict with 'state' and 'param_groups', found int"));
}
