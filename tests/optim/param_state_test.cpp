// Optimizer::param_state and load_param_state (Note [Optimizer state in torch's layout]):
// torch's names and order for every optimizer, the optimizer's own tensors, resuming from a
// copy of the state exactly where the original goes, copies cast to the parameter, and loads
// that are refused changing nothing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using test::error_of;

namespace {

std::vector<std::string> names(const optim::ParamState& state) {
  std::vector<std::string> out;
  for (const auto& [name, t] : state) out.push_back(name);
  return out;
}

/// One step on w with the gradient of sum(w * w * k).
void step_once(optim::Optimizer& opt, Tensor& w, float k) {
  opt.zero_grad();
  (w * w * k).sum().backward();
  opt.step();
}

bool same_values(const Tensor& a, const Tensor& b) {
  return a.cpu().tolist<float>() == b.cpu().tolist<float>();
}

using Factory = std::function<std::unique_ptr<optim::Optimizer>(Tensor)>;

std::vector<std::pair<std::string, Factory>> every_optimizer() {
  return {
      {"SGD", [](Tensor w) { return std::make_unique<optim::SGD>(std::vector<Tensor>{w}, optim::SGDOptions(0.1).momentum(0.9)); }},
      {"Adam", [](Tensor w) { return std::make_unique<optim::Adam>(std::vector<Tensor>{w}, optim::AdamOptions(0.1).amsgrad(true)); }},
      {"AdamW", [](Tensor w) { return std::make_unique<optim::AdamW>(std::vector<Tensor>{w}, optim::AdamWOptions(0.1)); }},
      {"RMSprop", [](Tensor w) { return std::make_unique<optim::RMSprop>(std::vector<Tensor>{w}, optim::RMSpropOptions(0.1).momentum(0.5).centered(true)); }},
      {"Adagrad", [](Tensor w) { return std::make_unique<optim::Adagrad>(std::vector<Tensor>{w}, optim::AdagradOptions(0.1).lr_decay(0.1)); }},
  };
}

}  // namespace

TEST(ParamState, NamesAndOrderAreTorchs) {
  Tensor w = ones({3}).requires_grad_();
  optim::SGD sgd({w}, optim::SGDOptions(0.1).momentum(0.9));
  EXPECT_TRUE(sgd.param_state(0).empty()) << "no state before the first step, as torch";
  step_once(sgd, w, 1);
  EXPECT_THAT(names(sgd.param_state(0)), ElementsAre("momentum_buffer"));

  optim::SGD plain({w}, optim::SGDOptions(0.1));
  step_once(plain, w, 1);
  ASSERT_THAT(names(plain.param_state(0)), ElementsAre("momentum_buffer"));
  EXPECT_FALSE(plain.param_state(0)[0].second.defined()) << "torch's None without momentum";

  optim::Adam adam({w}, optim::AdamOptions(0.1));
  step_once(adam, w, 1);
  EXPECT_THAT(names(adam.param_state(0)), ElementsAre("step", "exp_avg", "exp_avg_sq"));
  optim::AdamW adamw({w}, optim::AdamWOptions(0.1).amsgrad(true));
  step_once(adamw, w, 1);
  step_once(adamw, w, 1);
  const optim::ParamState s = adamw.param_state(0);
  EXPECT_THAT(names(s), ElementsAre("step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"));
  EXPECT_EQ(s[0].second.dtype(), kFloat32);
  EXPECT_EQ(s[0].second.dim(), 0);
  EXPECT_EQ(s[0].second.item<float>(), 2.f);

  optim::RMSprop rms({w}, optim::RMSpropOptions(0.1));
  step_once(rms, w, 1);
  EXPECT_THAT(names(rms.param_state(0)), ElementsAre("step", "square_avg"));
  rms.options().momentum(0.9).centered(true);
  step_once(rms, w, 1);
  EXPECT_THAT(names(rms.param_state(0)),
              ElementsAre("step", "square_avg", "momentum_buffer", "grad_avg"));

  optim::Adagrad adagrad({w}, optim::AdagradOptions(0.1).initial_accumulator_value(0.25));
  const optim::ParamState fresh = adagrad.param_state(0);
  ASSERT_THAT(names(fresh), ElementsAre("step", "sum")) << "made by the constructor, as torch's";
  EXPECT_EQ(fresh[0].second.item<float>(), 0.f);
  EXPECT_EQ(fresh[1].second.tolist<float>(), (std::vector<float>{0.25f, 0.25f, 0.25f}));
}

TEST(ParamState, HoldsTheOptimizersOwnTensors) {
  Tensor w = ones({2}).requires_grad_();
  optim::Adam adam({w}, optim::AdamOptions(0.1));
  step_once(adam, w, 1);
  adam.param_state(0)[1].second.zero_();  // exp_avg, in place
  EXPECT_EQ(adam.param_state(0)[1].second.tolist<float>(), (std::vector<float>{0, 0}));
}

TEST(ParamState, AnOptimizerLoadedWithAnothersStateGoesOnExactlyAsIt) {
  for (const auto& [name, make] : every_optimizer()) {
    SCOPED_TRACE(name);
    Tensor w = arange(1, 5).to(kFloat32).requires_grad_();
    const auto original = make(w);
    for (int i = 0; i < 3; ++i) step_once(*original, w, 0.5f);
    Tensor v = w.detach().clone().requires_grad_();
    const auto resumed = make(v);
    resumed->load_param_state(0, original->param_state(0));
    EXPECT_EQ(names(resumed->param_state(0)), names(original->param_state(0)));
    for (int i = 0; i < 3; ++i) {
      step_once(*original, w, 0.5f);
      step_once(*resumed, v, 0.5f);
      EXPECT_TRUE(same_values(w, v)) << "step " << i + 4;
    }
  }
}

TEST(ParamState, LoadingCopiesAndCastsToTheParameter) {
  Tensor w = ones({2}).requires_grad_();  // float32
  optim::Adam adam({w}, optim::AdamOptions(0.1));
  Tensor exp_avg = full({2}, 0.5, TensorOptions(kFloat64));
  adam.load_param_state(0, {{"step", scalar_tensor(3)}, {"exp_avg", exp_avg},
                            {"exp_avg_sq", ones({2}, TensorOptions(kFloat64))}});
  const optim::ParamState s = adam.param_state(0);
  EXPECT_EQ(s[0].second.item<float>(), 3.f);
  EXPECT_EQ(s[1].second.dtype(), kFloat32) << "state takes its parameter's dtype, as torch's";
  exp_avg.fill_(7);
  EXPECT_EQ(s[1].second.tolist<float>(), (std::vector<float>{0.5f, 0.5f})) << "a copy";
  adam.load_param_state(0, {});
  EXPECT_TRUE(adam.param_state(0).empty()) << "an empty state: not stepped yet";
}

TEST(ParamState, RefusedLoadsSayWhyAndChangeNothing) {
  Tensor w = ones({2}).requires_grad_();
  optim::RMSprop rms({w}, optim::RMSpropOptions(0.1));
  step_once(rms, w, 1);
  const std::vector<float> before = rms.param_state(0)[1].second.tolist<float>();
  EXPECT_THAT(error_of([&] { rms.load_param_state(0, {{"step", scalar_tensor(1)}, {"exp_avg", ones({2})}}); }),
              HasSubstr("[optim::RMSprop::load_param_state] expected state entries among step, "
                        "square_avg, momentum_buffer, grad_avg, found 'exp_avg'"));
  EXPECT_THAT(error_of([&] { rms.load_param_state(0, {{"step", scalar_tensor(1)}, {"square_avg", ones({3})}}); }),
              HasSubstr("expected 'square_avg' of the parameter's shape (2,), found (3,)"));
  EXPECT_THAT(error_of([&] { rms.load_param_state(0, {{"square_avg", ones({2})}}); }),
              HasSubstr("expected a 'step' entry holding the step count"));
  EXPECT_THAT(error_of([&] { rms.load_param_state(0, {{"step", scalar_tensor(1)}}); }),
              HasSubstr("expected a 'square_avg' entry in the parameter's state, found none"));
  EXPECT_THAT(error_of([&] { rms.load_param_state(1, {}); }),
              HasSubstr("[optim::RMSprop::load_param_state] expected a parameter index below 1, found 1"));
  EXPECT_THAT(error_of([&] { rms.param_state(2); }), HasSubstr("expected a parameter index below 1"));
  EXPECT_EQ(rms.param_state(0)[1].second.tolist<float>(), before);
  optim::Adagrad adagrad({w});
  EXPECT_THAT(error_of([&] { adagrad.load_param_state(0, {}); }),
              HasSubstr("expected 'step' and 'sum' entries, found an empty state"));
}
