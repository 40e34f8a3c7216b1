// Issue 25's reductions and scans against torch 1.13 (tests/fixtures/reduce_goldens.json,
// written by scripts/gen_reduce_goldens.py): dtype, shape and values, and the calls torch
// rejects (with torch's words where users know them). On the cpu; the device test runs the
// same goldens on every cuda device.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/golden_compare.h"
#include "support/golden_json.h"
#include "support/reduce_golden_runners.h"

namespace tide {
namespace {

using test::Golden;

class ReductionsMatchTorch : public ::testing::TestWithParam<Golden> {};

TEST_P(ReductionsMatchTorch, OnCpu) {
  const nlohmann::json& spec = GetParam().spec;
  const auto op = spec.at("op").get<std::string>();
  std::vector<Tensor> a;
  for (const nlohmann::json& t : spec.at("inputs")) a.push_back(test::tensor_from_json(t));
  const nlohmann::json& args = spec.at("args");
  if (spec.contains("raises")) {
    SCOPED_TRACE("torch says: " + spec.at("raises").get<std::string>());
    try {
      (void)test::run_reduce_golden(op, a, args);
      ADD_FAILURE() << "expected tide::Error, as torch rejects this call";
    } catch (const Error& e) {
      if (spec.contains("message")) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(spec.at("message").get<std::string>()));
      }
    }
    return;
  }
  const std::vector<Tensor> out = test::run_reduce_golden(op, a, args);
  const nlohmann::json& expected = spec.at("outputs");
  ASSERT_EQ(out.size(), expected.size());
  for (size_t i = 0; i < out.size(); ++i) test::expect_matches(out[i], expected[i], i);
}

INSTANTIATE_TEST_SUITE_P(Torch113, ReductionsMatchTorch,
                         ::testing::ValuesIn(test::load_goldens("reduce_goldens.json")),
                         [](const ::testing::TestParamInfo<Golden>& info) {
                           return info.param.name;
                         });

TEST(ReductionGoldens, FileIsPresent) {
  EXPECT_GE(test::load_goldens("reduce_goldens.json").size(), 100u)
      << "missing " << TIDE_TEST_DATA_DIR << "/reduce_goldens.json; run "
      << "scripts/gen_reduce_goldens.py";
}

}  // namespace
}  // namespace tide
