// conv2d, conv1d, the poolings, batch_norm and nn::BatchNorm2d's steps against torch 1.13 (tests/fixtures/
// conv_goldens.json, written by scripts/gen_conv_goldens.py): outputs, the running statistics
// batch_norm updates, every input's gradient through backward(), and the calls torch rejects.
// float32 convolutions run on oneDNN (torch's on mkldnn or its own loops), so values match to
// float rounding of a different summation order, not bit for bit.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support/golden_json.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/nn/batch_norm.h"
#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {
namespace {

using nlohmann::json;
using test::Golden;
using test::json_double;
using test::tensor_from_json;
using Inputs = std::vector<Tensor>;
using Outputs = std::vector<Tensor>;
using Runner = std::function<Outputs(const Inputs&, const json&)>;

IntArrayRef ints(const json& v) {
  if (v.is_number_integer()) return IntArrayRef(v.get<int64_t>());
  return IntArrayRef(v.get<std::vector<int64_t>>());
}

Outputs conv(const Inputs& in, const json& a, bool one_d) {
  const json& padding = a.at("padding");
  const int64_t groups = a.at("groups").get<int64_t>();
  if (padding.is_string()) {
    return {conv2d(in[0], in[1], in[2], ints(a.at("stride")),
                   PaddingMode(padding.get<std::string>()), ints(a.at("dilation")), groups)};
  }
  const auto f = one_d ? &conv1d : static_cast<Tensor (*)(const Tensor&, const Tensor&,
                                                          const Tensor&, IntArrayRef, IntArrayRef,
                                                          IntArrayRef, int64_t)>(&conv2d);
  return {f(in[0], in[1], in[2], ints(a.at("stride")), ints(padding), ints(a.at("dilation")),
            groups)};
}

const std::map<std::string, Runner>& runners() {
  static const std::map<std::string, Runner> table{
      {"conv2d", [](const Inputs& in, const json& a) { return conv(in, a, false); }},
      {"conv1d", [](const Inputs& in, const json& a) { return conv(in, a, true); }},
      {"max_pool2d",
       [](const Inputs& in, const json& a) {
         auto [values, indices] = max_pool2d_with_indices(
             in[0], ints(a.at("kernel_size")), ints(a.at("stride")), ints(a.at("padding")),
             ints(a.at("dilation")), a.at("ceil_mode").get<bool>());
         // max_pool2d alone gives the same values.
         const Tensor alone = max_pool2d(in[0].detach(), ints(a.at("kernel_size")),
                                         ints(a.at("stride")), ints(a.at("padding")),
                                         ints(a.at("dilation")), a.at("ceil_mode").get<bool>());
         EXPECT_EQ(alone.to(kFloat64).tolist<double>(),
                   values.detach().to(kFloat64).tolist<double>());
         return Outputs{values, indices};
       }},
      {"avg_pool2d",
       [](const Inputs& in, const json& a) {
         const json& d = a.at("divisor_override");
         return Outputs{avg_pool2d(in[0], ints(a.at("kernel_size")), ints(a.at("stride")),
                                   ints(a.at("padding")), a.at("ceil_mode").get<bool>(),
                                   a.at("count_include_pad").get<bool>(),
                                   d.is_null() ? std::nullopt
                                               : std::optional<int64_t>(d.get<int64_t>()))};
       }},
      {"adaptive_avg_pool2d",
       [](const Inputs& in, const json& a) {
         return Outputs{adaptive_avg_pool2d(in[0], ints(a.at("output_size")))};
       }},
      {"batch_norm",
       [](const Inputs& in, const json& a) {
         Outputs out{batch_norm(in[0], in[1], in[2], in[3], in[4], a.at("training").get<bool>(),
                                json_double(a.at("momentum")), json_double(a.at("eps")))};
         for (size_t i : {3u, 4u}) {
           if (in[i].defined()) out.push_back(in[i]);
         }
         return out;
       }},
      {"batch_norm2d_module",
       [](const Inputs& in, const json& a) {
         const json& m = a.at("momentum");
         nn::BatchNorm2d bn(3, 1e-5, m.is_null() ? std::nullopt
                                                 : std::optional<double>(json_double(m)));
         bn.weight.detach().copy_(in[4]);
         bn.bias.detach().copy_(in[5]);
         Outputs out{bn(in[0]), bn(in[1]), bn(in[2])};
         bn.eval();
         out.push_back(bn(in[3]));
         for (const Tensor& t : {bn.running_mean, bn.running_var, bn.num_batches_tracked}) {
           out.push_back(t);
         }
         return out;
       }},
  };
  return table;
}

/// Close to float32 rounding of another summation order.
bool close(double got, double want) {
  return std::abs(got - want) <= 2e-5 + 2e-5 * std::abs(want);
}

void expect_matches(const Tensor& got, const json& want, const std::string& what) {
  SCOPED_TRACE(what);
  const Tensor t = tensor_from_json(want);
  ASSERT_EQ(got.dtype(), t.dtype());
  ASSERT_EQ(got.sizes(), t.sizes());
  if (t.dtype() == kInt64) {
    EXPECT_EQ(got.contiguous().tolist<int64_t>(), t.tolist<int64_t>());
    return;
  }
  const std::vector<double> g = got.detach().to(kFloat64).contiguous().tolist<double>();
  const std::vector<double> w = t.to(kFloat64).tolist<double>();
  int reported = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    if (!close(g[i], w[i]) && reported++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << g[i] << ", torch gives " << w[i];
    }
  }
}

/// The rejections whose words users know from torch: tide repeats them after "[op] ".
const std::set<std::string> kTorchWording = {
    "conv2d_channel_mismatch_rejected", "conv2d_same_strided_rejected",
    "conv2d_kernel_too_large_rejected", "max_pool2d_pad_too_large_rejected"};

class ConvMatchesTorch : public ::testing::TestWithParam<Golden> {};

TEST_P(ConvMatchesTorch, OutputsAndGradients) {
  const Golden& golden = GetParam();
  const json& spec = golden.spec;
  const Runner& run = runners().at(spec.at("op").get<std::string>());
  Inputs inputs;
  for (const json& t : spec.at("inputs")) {
    inputs.push_back(t.is_null() ? Tensor() : tensor_from_json(t));
  }
  if (spec.contains("raises")) {
    const std::string torch_says = spec.at("raises").get<std::string>();
    SCOPED_TRACE("torch says: " + torch_says);
    try {
      (void)run(inputs, spec.at("args"));
      ADD_FAILURE() << "expected tide::Error, as torch rejects this call";
    } catch (const Error& e) {
      if (kTorchWording.count(golden.name)) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(torch_says));
      }
    }
    return;
  }
  if (!spec.contains("grads")) {  // a module's steps: outputs only
    const Outputs out = run(inputs, spec.at("args"));
    ASSERT_EQ(out.size(), spec.at("outputs").size());
    for (size_t i = 0; i < out.size(); ++i) {
      expect_matches(out[i], spec.at("outputs")[i], "output " + std::to_string(i));
    }
    return;
  }
  const json& grads = spec.at("grads");
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!grads[i].is_null()) inputs[i].requires_grad_();
  }
  const Outputs out = run(inputs, spec.at("args"));
  const json& expected = spec.at("outputs");
  ASSERT_EQ(out.size(), expected.size());
  for (size_t i = 0; i < out.size(); ++i) {
    expect_matches(out[i], expected[i], "output " + std::to_string(i));
  }
  (out[0] * tensor_from_json(spec.at("grad_output"))).sum().backward();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (grads[i].is_null()) continue;
    ASSERT_TRUE(inputs[i].grad().defined()) << "input " << i << " got no gradient";
    expect_matches(inputs[i].grad(), grads[i], "gradient of input " + std::to_string(i));
  }
}

INSTANTIATE_TEST_SUITE_P(Torch113, ConvMatchesTorch,
                         ::testing::ValuesIn(test::load_goldens("conv_goldens.json")),
                         [](const ::testing::TestParamInfo<Golden>& info) {
                           return info.param.name;
                         });

TEST(ConvGoldens, FileIsPresentAndCoversEveryOp) {
  const auto goldens = test::load_goldens("conv_goldens.json");
  ASSERT_GE(goldens.size(), 30u) << "missing " << TIDE_TEST_DATA_DIR
                                 << "/conv_goldens.json; run scripts/gen_conv_goldens.py";
  std::set<std::string> ops;
  for (const auto& g : goldens) ops.insert(g.spec.at("op").get<std::string>());
  for (const auto& [name, run] : runners()) EXPECT_TRUE(ops.count(name)) << name;
}

}  // namespace
}  // namespace tide
