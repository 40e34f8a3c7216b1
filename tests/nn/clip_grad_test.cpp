// nn::utils: clip_grad_norm_ for every norm type and clip_grad_value_ against torch 1.13's
// results (tests/fixtures/nn_goldens.json, scripts/gen_nn_goldens.py: the same gradients as
// tests/python/test_nn_more.py), the non-finite check, and parameters_to_vector and back.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

nlohmann::json clip_goldens() {
  std::ifstream in(std::string(TIDE_TEST_DATA_DIR) + "/nn_goldens.json");
  EXPECT_TRUE(in) << "tests/fixtures/nn_goldens.json is missing";
  return in ? nlohmann::json::parse(in).at("clip") : nlohmann::json();
}

std::vector<double> values(const Tensor& t) { return t.to(kFloat64).contiguous().tolist<double>(); }

std::vector<double> flat(const nlohmann::json& rows) {
  std::vector<double> out;
  for (const auto& row : rows) {
    if (row.is_array()) {
      for (double v : flat(row)) out.push_back(v);
    } else {
      out.push_back(row.get<double>());
    }
  }
  return out;
}

std::vector<Tensor> grads_model() {
  Tensor a = zeros({2, 3}).requires_grad_(true);
  Tensor b = zeros({4}).requires_grad_(true);
  a.mutable_grad() = tensor({{0.5, -1.0, 2.0}, {3.0, 0.0, -0.25}}).to(kFloat32);
  b.mutable_grad() = tensor({1.0, -2.0, 0.125, 4.0}).to(kFloat32);
  return {a, b};
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
}

TEST(ClipGradNorm, MatchesTorchForEveryNormType) {
  const nlohmann::json goldens = clip_goldens();
  ASSERT_FALSE(goldens.is_null());
  ASSERT_EQ(goldens.at("norm").size(), 10u);
  for (const auto& g : goldens.at("norm")) {
    const double norm_type = g.at("norm_type").is_string() ? std::numeric_limits<double>::infinity()
                                                           : g.at("norm_type").get<double>();
    SCOPED_TRACE("norm_type " + std::to_string(norm_type));
    std::vector<Tensor> params = grads_model();
    const double total =
        nn::utils::clip_grad_norm_(params, g.at("max_norm").get<double>(), norm_type);
    EXPECT_NEAR(total, g.at("total").get<double>(), 1e-5 * std::max(1.0, total));
    std::vector<double> got = values(params[0].grad());
    for (double v : values(params[1].grad())) got.push_back(v);
    expect_near(got, flat(g.at("grads")));
  }
}

TEST(ClipGradNorm, NonFiniteNormsThrowOnRequestAndNoGradientsGiveZero) {
  std::vector<Tensor> params = grads_model();
  params[1].mutable_grad().fill_(std::nan(""));
  EXPECT_THAT(error_of([&] { nn::utils::clip_grad_norm_(params, 1.0, 2.0, true); }),
              HasSubstr("is non-finite, so it cannot be clipped"));
  EXPECT_TRUE(std::isnan(nn::utils::clip_grad_norm_(params, 1.0)));
  EXPECT_TRUE(std::isnan(values(params[0].grad())[0]));
  EXPECT_EQ(nn::utils::clip_grad_norm_(zeros({2}).requires_grad_(true), 1.0), 0.0);
}

TEST(ClipGradValue, ClampsEveryGradientAsTorch) {
  const nlohmann::json goldens = clip_goldens();
  ASSERT_FALSE(goldens.is_null());
  std::vector<Tensor> params = grads_model();
  nn::utils::clip_grad_value_(params, 1.5);
  std::vector<double> got = values(params[0].grad());
  for (double v : values(params[1].grad())) got.push_back(v);
  expect_near(got, flat(goldens.at("value")));
}

TEST(ParametersToVector, FlattensInOrderAndParametersThenViewTheVector) {
  nn::Linear fc(3, 2);
  const Tensor vec = arange(8).to(kFloat32);
  nn::utils::vector_to_parameters(vec, fc.parameters());
  EXPECT_EQ(values(fc.weight), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values(fc.bias), (std::vector<double>{6, 7}));
  EXPECT_EQ(values(nn::utils::parameters_to_vector(fc.parameters())), values(vec));
  {
    NoGradGuard no_grad;
    Tensor(vec).narrow(0, 0, 1).fill_(42);  // the parameters view the vector, as torch's
  }
  EXPECT_EQ(values(fc.weight)[0], 42.0);
  EXPECT_TRUE(fc.weight.requires_grad());
  EXPECT_THAT(error_of([&] { nn::utils::vector_to_parameters(arange(3).to(kFloat32),
                                                              fc.parameters()); }),
              HasSubstr("expected a vector of at least 6 elements, found 3"));
}

}  // namespace
}  // namespace tide
