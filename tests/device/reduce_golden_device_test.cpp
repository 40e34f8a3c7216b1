// Issue 25's reductions and scans on every cuda device against torch 1.13's results (the
// goldens of tests/ops/reduce_golden_test.cpp): results on the operand's device, with torch's
// dtype, shape and values, and the same calls refused. Calls that torch refuses only on its
// cpu ("prod_cpu" not implemented for 'Half') are skipped here: torch's CUDA runs them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "device_helpers.h"
#include "support/golden_compare.h"
#include "support/golden_json.h"
#include "support/reduce_golden_runners.h"
#include "tide/cuda.h"

using namespace tide;
using test::cuda_device;

TEST(ReductionGoldensOnDevices, MatchTorchOnEveryDevice) {
  TIDE_REQUIRE_DEVICES(1);
  const auto goldens = test::load_goldens("reduce_goldens.json");
  ASSERT_FALSE(goldens.empty());
  for (int d = 0; d < cuda::device_count(); ++d) {
    for (const test::Golden& g : goldens) {
      SCOPED_TRACE(g.name + " on cuda:" + std::to_string(d));
      const nlohmann::json& spec = g.spec;
      const auto op = spec.at("op").get<std::string>();
      std::vector<Tensor> a;
      for (const nlohmann::json& t : spec.at("inputs")) {
        a.push_back(test::tensor_from_json(t).to(cuda_device(d)));
      }
      const nlohmann::json& args = spec.at("args");
      if (spec.contains("raises")) {
        const auto raises = spec.at("raises").get<std::string>();
        if (raises.find("_cpu\" not implemented") != std::string::npos) continue;
        EXPECT_THROW(
            {
              for (const Tensor& t : test::run_reduce_golden(op, a, args)) (void)t.cpu();
            },
            Error);
        continue;
      }
      const std::vector<Tensor> out = test::run_reduce_golden(op, a, args);
      const nlohmann::json& expected = spec.at("outputs");
      ASSERT_EQ(out.size(), expected.size());
      for (size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(out[i].device(), cuda_device(d));
        test::expect_matches(out[i], expected[i], i);
      }
    }
  }
}
