// tide's fused SGD and Adam steps against libtorch's optimizers: 10 steps on a fixed least-
// squares problem (tests/fixtures/optim_goldens.json, scripts/gen_optim_goldens), in float32 and
// float64, on the cpu. The gradient is computed here with tide ops; libtorch's came from its
// autograd. The same runs on every cuda device must match these (tests/device/fused_optim_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "support/golden_json.h"
#include "support/optim_trajectory.h"

using namespace tide;
using test::Golden;
using test::close_to_golden;

namespace {

const std::vector<Golden>& goldens() {
  static const std::vector<Golden> all = test::load_goldens("optim_goldens.json");
  return all;
}

class TrajectoryVsLibtorch : public ::testing::TestWithParam<Golden> {};

}  // namespace

TEST(TrajectoryVsLibtorchGoldens, CoverEveryOptimizerCaseInBothDtypes) {
  std::set<std::string> names;
  for (const Golden& g : goldens()) names.insert(g.name);
  for (const char* c : {"sgd_plain", "sgd_momentum", "sgd_dampening", "sgd_weight_decay",
                        "sgd_nesterov", "sgd_momentum_weight_decay_nesterov", "adam_plain",
                        "adam_weight_decay", "adam_amsgrad", "adam_betas_eps",
                        "adam_amsgrad_weight_decay"}) {
    for (const char* dtype : {"_float32", "_float64"}) {
      EXPECT_TRUE(names.count(std::string(c) + dtype)) << c << dtype << " missing";
    }
  }
  for (const Golden& g : goldens()) EXPECT_EQ(g.spec.at("trajectory").size(), 10u) << g.name;
}

TEST_P(TrajectoryVsLibtorch, FusedStepsFollowLibtorchsTrajectoryOnCpu) {
  const Golden& golden = GetParam();
  test::expect_golden_trajectory(test::run_trajectory(golden, Device(kCPU)), golden);
}

TEST_P(TrajectoryVsLibtorch, OptimizersWithAutogradFollowLibtorchsTrajectoryOnCpu) {
  const Golden& golden = GetParam();
  test::expect_golden_trajectory(test::run_trajectory_with_optimizer(golden, Device(kCPU)), golden);
}

TEST(TrajectoryVsLibtorchGoldens, LeaveTheGoldenWhenAnyOptionTheySetIsReset) {
  // A step that ignored an option would still pass its golden if that option changed nothing
  // on this problem: resetting any option a golden sets to its default must move the last
  // step away from the golden (amsgrad's maximum included: exp_avg_sq falls there).
  const nlohmann::json sgd_defaults = {{"momentum", 0.0}, {"dampening", 0.0},
                                       {"weight_decay", 0.0}, {"nesterov", false}};
  const nlohmann::json adam_defaults = {{"betas", {0.9, 0.999}}, {"eps", 1e-8},
                                        {"weight_decay", 0.0}, {"amsgrad", false}};
  int variants = 0;
  for (const Golden& golden : goldens()) {
    const bool is_sgd = golden.spec.at("optimizer") == "sgd";
    for (const auto& [key, fallback] : (is_sgd ? sgd_defaults : adam_defaults).items()) {
      if (golden.spec.at("options").at(key) == fallback) continue;
      Golden reset = golden;
      reset.spec["options"][key] = fallback;
      // Nesterov needs momentum: resetting momentum resets nesterov too.
      if (key == "momentum") reset.spec["options"]["nesterov"] = false;
      SCOPED_TRACE(golden.name + " without " + key);
      const std::vector<Tensor> got = test::run_trajectory(reset, Device(kCPU));
      EXPECT_FALSE(close_to_golden(got.back(), golden.spec.at("trajectory").back()));
      ++variants;
    }
  }
  EXPECT_GE(variants, 20);
}

INSTANTIATE_TEST_SUITE_P(Goldens, TrajectoryVsLibtorch, ::testing::ValuesIn(goldens()),
                         [](const ::testing::TestParamInfo<Golden>& info) { return info.param.name; });
