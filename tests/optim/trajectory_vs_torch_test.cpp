// tide's fused AdamW, RMSprop and Adagrad against torch 1.13's Python optimizers: 10 steps on
// the least-squares problem of the libtorch goldens (tests/fixtures/optim_torch_goldens.json,
// scripts/gen_optim_torch_goldens.py), in float32 and float64, on the cpu: the fused steps
// alone, the optimizer classes in a training loop, and an optimizer that loads torch's
// state_dict after step 5 and goes on to torch's steps 6 to 10. The same runs on every cuda
// device must match these (tests/device/fused_optim_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/golden_json.h"
#include "support/optim_trajectory.h"
#include "tide/optim.h"

using namespace tide;
using test::close_to_golden;
using test::Golden;

namespace {

std::vector<Golden> optimizer_goldens() {
  std::vector<Golden> out;
  for (Golden& g : test::load_goldens("optim_torch_goldens.json")) {
    if (g.spec.at("kind") == "optimizer") out.push_back(std::move(g));
  }
  return out;
}

const std::vector<Golden>& goldens() {
  static const std::vector<Golden> all = optimizer_goldens();
  return all;
}

/// torch's saved state of one parameter ({name: tensor json or number}) as tide's ParamState:
/// a number (RMSprop's int step) becomes a 0-dim tensor, as Python's load_state_dict hands it.
optim::ParamState param_state_from(const nlohmann::json& saved) {
  optim::ParamState state;
  for (const auto& [name, value] : saved.items()) {
    state.emplace_back(name, value.is_object() ? test::tensor_from_json(value)
                                               : scalar_tensor(value.get<double>()));
  }
  return state;
}

class TrajectoryVsTorch : public ::testing::TestWithParam<Golden> {};

}  // namespace

TEST(TrajectoryVsTorchGoldens, CoverEveryOptimizerCaseInBothDtypes) {
  std::set<std::string> names;
  for (const Golden& g : goldens()) names.insert(g.name);
  for (const char* c : {"adamw_plain", "adamw_weight_decay", "adamw_amsgrad",
                        "adamw_maximize_betas_eps", "rmsprop_plain", "rmsprop_alpha_eps",
                        "rmsprop_momentum", "rmsprop_centered",
                        "rmsprop_centered_momentum_weight_decay", "rmsprop_maximize",
                        "adagrad_plain", "adagrad_lr_decay", "adagrad_weight_decay_initial_eps",
                        "adagrad_maximize"}) {
    for (const char* dtype : {"_float32", "_float64"}) {
      EXPECT_TRUE(names.count(std::string(c) + dtype)) << c << dtype << " missing";
    }
  }
  for (const Golden& g : goldens()) {
    EXPECT_EQ(g.spec.at("trajectory").size(), 10u) << g.name;
    EXPECT_TRUE(g.spec.at("state_dict").at("state").contains("0")) << g.name;
  }
}

TEST_P(TrajectoryVsTorch, FusedStepsFollowTorchsTrajectoryOnCpu) {
  const Golden& golden = GetParam();
  test::expect_golden_trajectory(test::run_trajectory(golden, Device(kCPU)), golden);
}

TEST_P(TrajectoryVsTorch, OptimizersWithAutogradFollowTorchsTrajectoryOnCpu) {
  const Golden& golden = GetParam();
  test::expect_golden_trajectory(test::run_trajectory_with_optimizer(golden, Device(kCPU)), golden);
}

TEST_P(TrajectoryVsTorch, AnOptimizerResumedFromTorchsStateDictTakesTorchsNextSteps) {
  const Golden& golden = GetParam();
  const nlohmann::json& spec = golden.spec;
  const nlohmann::json& expected = spec.at("trajectory");
  const Tensor a = test::tensor_from_json(spec.at("A"));
  const Tensor b = test::tensor_from_json(spec.at("B"));
  // X after torch's step 5, and a fresh optimizer given torch's state of that moment.
  Tensor x = test::tensor_from_json(expected.at(4)).requires_grad_();
  const auto opt = test::optimizer_from(spec, {x});
  opt->load_param_state(0, param_state_from(spec.at("state_dict").at("state").at("0")));
  // The state reads back in torch's layout: the same names, the step count 5.
  std::vector<std::string> names;
  for (const auto& [name, value] : opt->param_state(0)) names.push_back(name);
  std::vector<std::string> torch_names;
  for (const auto& [name, value] : spec.at("state_dict").at("state").at("0").items()) {
    torch_names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, torch_names);  // nlohmann::json orders object keys
  EXPECT_EQ(opt->param_state(0).front().first, "step");
  EXPECT_EQ(opt->param_state(0).front().second.item<float>(), 5.f);
  for (size_t step = 5; step < expected.size(); ++step) {
    test::train_step(*opt, a, x, b);
    EXPECT_TRUE(close_to_golden(x.detach(), expected[step])) << "after step " << step + 1;
  }
}

TEST(TrajectoryVsTorchGoldens, LeaveTheGoldenWhenAnyOptionTheySetIsReset) {
  // A step that ignored an option would still pass its golden if that option changed nothing
  // on this problem: resetting any option a golden sets (other than lr) to torch's default
  // must move the last step away from the golden (AdamW's weight_decay=0 included: torch's
  // default is 0.01).
  int variants = 0;
  for (const Golden& golden : goldens()) {
    for (const auto& option : golden.spec.at("options").items()) {
      const std::string key = option.key();
      if (key == "lr") continue;
      Golden reset = golden;
      reset.spec["options"].erase(key);
      SCOPED_TRACE(golden.name + " without " + key);
      const std::vector<Tensor> got = test::run_trajectory(reset, Device(kCPU));
      EXPECT_FALSE(close_to_golden(got.back(), golden.spec.at("trajectory").back()));
      ++variants;
    }
  }
  EXPECT_GE(variants, 30);
}

INSTANTIATE_TEST_SUITE_P(Goldens, TrajectoryVsTorch, ::testing::ValuesIn(goldens()),
                         [](const ::testing::TestParamInfo<Golden>& info) { return info.param.name; });
