// Every op against torch's own results (tests/fixtures/op_goldens.json, written by
// scripts/gen_op_goldens.py from torch 1.13): output dtype, shape and values, and which calls
// torch rejects. The script's docstring lists how each golden's "op" and "args" are read.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/golden_compare.h"
#include "support/golden_json.h"
#include "support/table_samples.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {
namespace {

using nlohmann::json;

using OpGolden = test::Golden;
using test::dtype_named;
using test::json_double;
using test::tensor_from_json;
using test::close;
using test::expect_matches;

std::vector<OpGolden> load_goldens() { return test::load_goldens("op_goldens.json"); }

/// 2 is an integer Scalar and 2.0 a floating one, as in the Python call that made the golden.
Scalar scalar_from_json(const json& v) {
  if (v.is_boolean()) return Scalar(v.get<bool>());
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  return Scalar(json_double(v));
}

std::optional<Scalar> optional_scalar(const json& args, const char* key) {
  if (!args.contains(key) || args.at(key).is_null()) return std::nullopt;
  return scalar_from_json(args.at(key));
}

bool keepdim_of(const json& args) { return args.value("keepdim", false); }

std::optional<Dtype> dtype_arg(const json& args) {
  if (!args.contains("dtype")) return std::nullopt;
  return dtype_named(args.at("dtype").get<std::string>());
}

Reduction reduction_of(const json& args) {
  auto r = args.value("reduction", std::string("mean"));
  if (r == "none") return Reduction::None;
  if (r == "sum") return Reduction::Sum;
  return Reduction::Mean;
}

// ---- running an op by name

using Inputs = std::vector<Tensor>;
using Outputs = std::vector<Tensor>;
using OpRunner = std::function<Outputs(const Inputs&, const json&)>;

template <class F>
OpRunner binary(F f) {
  return [f](const Inputs& in, const json&) { return Outputs{f(in.at(0), in.at(1))}; };
}
template <class F>
OpRunner with_scalar(F f, const char* key) {
  return [f, key](const Inputs& in, const json& args) {
    return Outputs{f(in.at(0), scalar_from_json(args.at(key)))};
  };
}
template <class F>
OpRunner unary(F f) {
  return [f](const Inputs& in, const json&) { return Outputs{f(in.at(0))}; };
}

// sum and mean: no dim (all), one dim or a list of dims.
template <class All, class One, class Many>
OpRunner reduction(All all, One one, Many many) {
  return [=](const Inputs& in, const json& args) {
    if (!args.contains("dim")) return Outputs{all(in.at(0), dtype_arg(args))};
    const json& dim = args.at("dim");
    if (dim.is_array()) {
      return Outputs{
          many(in.at(0), dim.get<std::vector<int64_t>>(), keepdim_of(args), dtype_arg(args))};
    }
    return Outputs{one(in.at(0), dim.get<int64_t>(), keepdim_of(args), dtype_arg(args))};
  };
}

// max and min: all elements (one output) or along a dim (values and indices).
template <class All, class Dim>
OpRunner extremum(All all, Dim along) {
  return [=](const Inputs& in, const json& args) {
    if (!args.contains("dim")) return Outputs{all(in.at(0))};
    auto [values, indices] = along(in.at(0), args.at("dim").get<int64_t>(), keepdim_of(args));
    return Outputs{values, indices};
  };
}

template <class All, class Dim>
OpRunner arg_extremum(All all, Dim along) {
  return [=](const Inputs& in, const json& args) {
    if (!args.contains("dim")) return Outputs{all(in.at(0))};
    return Outputs{along(in.at(0), args.at("dim").get<int64_t>(), keepdim_of(args))};
  };
}

template <class F>
OpRunner loss(F f) {
  return [f](const Inputs& in, const json& args) {
    Tensor weight = in.size() > 2 ? in[2] : Tensor();
    return Outputs{f(in.at(0), in.at(1), weight, reduction_of(args),
                     args.value("ignore_index", int64_t{-100}))};
  };
}

const std::map<std::string, OpRunner>& op_table() {
  using T = const Tensor&;
  static const std::map<std::string, OpRunner> table = {
      {"add",
       [](const Inputs& in, const json& a) {
         return Outputs{add(in.at(0), in.at(1), optional_scalar(a, "alpha").value_or(1))};
       }},
      {"sub",
       [](const Inputs& in, const json& a) {
         return Outputs{sub(in.at(0), in.at(1), optional_scalar(a, "alpha").value_or(1))};
       }},
      {"add_scalar",
       [](const Inputs& in, const json& a) {
         return Outputs{add(in.at(0), scalar_from_json(a.at("other")),
                            optional_scalar(a, "alpha").value_or(1))};
       }},
      {"sub_scalar",
       [](const Inputs& in, const json& a) {
         return Outputs{sub(in.at(0), scalar_from_json(a.at("other")),
                            optional_scalar(a, "alpha").value_or(1))};
       }},
      {"mul", binary([](T x, T y) { return mul(x, y); })},
      {"div", binary([](T x, T y) { return div(x, y); })},
      {"mul_scalar", with_scalar([](T x, Scalar s) { return mul(x, s); }, "other")},
      {"div_scalar", with_scalar([](T x, Scalar s) { return div(x, s); }, "other")},
      {"pow", binary([](T x, T y) { return pow(x, y); })},
      {"pow_scalar", with_scalar([](T x, Scalar s) { return pow(x, s); }, "exponent")},
      {"scalar_pow", with_scalar([](T x, Scalar s) { return pow(s, x); }, "base")},
      {"maximum", binary([](T x, T y) { return maximum(x, y); })},
      {"minimum", binary([](T x, T y) { return minimum(x, y); })},
      {"eq", binary([](T x, T y) { return eq(x, y); })},
      {"ne", binary([](T x, T y) { return ne(x, y); })},
      {"lt", binary([](T x, T y) { return lt(x, y); })},
      {"le", binary([](T x, T y) { return le(x, y); })},
      {"gt", binary([](T x, T y) { return gt(x, y); })},
      {"ge", binary([](T x, T y) { return ge(x, y); })},
      {"eq_scalar", with_scalar([](T x, Scalar s) { return eq(x, s); }, "other")},
      {"ne_scalar", with_scalar([](T x, Scalar s) { return ne(x, s); }, "other")},
      {"lt_scalar", with_scalar([](T x, Scalar s) { return lt(x, s); }, "other")},
      {"le_scalar", with_scalar([](T x, Scalar s) { return le(x, s); }, "other")},
      {"gt_scalar", with_scalar([](T x, Scalar s) { return gt(x, s); }, "other")},
      {"ge_scalar", with_scalar([](T x, Scalar s) { return ge(x, s); }, "other")},
      {"where",
       [](const Inputs& in, const json&) { return Outputs{where(in.at(0), in.at(1), in.at(2))}; }},
      {"where_scalar_other",
       [](const Inputs& in, const json& a) {
         return Outputs{where(in.at(0), in.at(1), scalar_from_json(a.at("other")))};
       }},
      {"clamp",
       [](const Inputs& in, const json& a) {
         return Outputs{clamp(in.at(0), optional_scalar(a, "min"), optional_scalar(a, "max"))};
       }},
      {"neg", unary([](T x) { return neg(x); })},
      {"abs", unary([](T x) { return abs(x); })},
      {"exp", unary([](T x) { return exp(x); })},
      {"log", unary([](T x) { return log(x); })},
      {"sqrt", unary([](T x) { return sqrt(x); })},
      {"relu", unary([](T x) { return relu(x); })},
      {"sigmoid", unary([](T x) { return sigmoid(x); })},
      {"tanh", unary([](T x) { return tanh(x); })},
      {"sum",
       reduction([](T x, std::optional<Dtype> d) { return sum(x, d); },
                 [](T x, int64_t dim, bool k, std::optional<Dtype> d) { return sum(x, dim, k, d); },
                 [](T x, std::vector<int64_t> dims, bool k, std::optional<Dtype> d) {
                   return sum(x, std::move(dims), k, d);
                 })},
      {"mean", reduction([](T x, std::optional<Dtype> d) { return mean(x, d); },
                         [](T x, int64_t dim, bool k, std::optional<Dtype> d) {
                           return mean(x, dim, k, d);
                         },
                         [](T x, std::vector<int64_t> dims, bool k, std::optional<Dtype> d) {
                           return mean(x, std::move(dims), k, d);
                         })},
      {"max",
       extremum([](T x) { return max(x); }, [](T x, int64_t d, bool k) { return max(x, d, k); })},
      {"min",
       extremum([](T x) { return min(x); }, [](T x, int64_t d, bool k) { return min(x, d, k); })},
      {"argmax", arg_extremum([](T x) { return argmax(x); },
                              [](T x, int64_t d, bool k) { return argmax(x, d, k); })},
      {"argmin", arg_extremum([](T x) { return argmin(x); },
                              [](T x, int64_t d, bool k) { return argmin(x, d, k); })},
      {"matmul", binary([](T x, T y) { return matmul(x, y); })},
      {"softmax",
       [](const Inputs& in,
          const json& a) { return Outputs{softmax(in.at(0), a.at("dim").get<int64_t>())}; }},
      {"log_softmax",
       [](const Inputs& in,
          const json& a) { return Outputs{log_softmax(in.at(0), a.at("dim").get<int64_t>())}; }},
      {"cat", [](const Inputs& in,
                 const json& a) { return Outputs{cat(in, a.at("dim").get<int64_t>())}; }},
      {"stack", [](const Inputs& in,
                   const json& a) { return Outputs{stack(in, a.at("dim").get<int64_t>())}; }},
      {"index_select",
       [](const Inputs& in,
          const json&
              a) { return Outputs{index_select(in.at(0), a.at("dim").get<int64_t>(), in.at(1))}; }},
      {"nll_loss",
       loss([](T i, T t, T w, Reduction r, int64_t ig) { return nll_loss(i, t, w, r, ig); })},
      {"cross_entropy",
       [](const Inputs& in, const json& a) {
         return Outputs{cross_entropy(in.at(0), in.at(1), in.size() > 2 ? in[2] : Tensor(),
                                      reduction_of(a), a.value("ignore_index", int64_t{-100}),
                                      a.value("label_smoothing", 0.0))};
       }},
      {"mse_loss",
       [](const Inputs& in, const json& a) {
         return Outputs{mse_loss(in.at(0), in.at(1), reduction_of(a))};
       }},
      {"l1_loss",
       [](const Inputs& in, const json& a) {
         return Outputs{l1_loss(in.at(0), in.at(1), reduction_of(a))};
       }},
      {"smooth_l1_loss",
       [](const Inputs& in, const json& a) {
         return Outputs{smooth_l1_loss(in.at(0), in.at(1), reduction_of(a), a.at("beta"))};
       }},
      {"huber_loss",
       [](const Inputs& in, const json& a) {
         return Outputs{huber_loss(in.at(0), in.at(1), reduction_of(a), a.at("delta"))};
       }},
      {"binary_cross_entropy",
       [](const Inputs& in, const json& a) {
         return Outputs{binary_cross_entropy(in.at(0), in.at(1), in.size() > 2 ? in[2] : Tensor(),
                                             reduction_of(a))};
       }},
      {"binary_cross_entropy_with_logits",
       [](const Inputs& in, const json& a) {
         size_t next = 2;
         Tensor weight = a.at("weight").get<bool>() ? in.at(next++) : Tensor();
         Tensor pos_weight = a.at("pos_weight").get<bool>() ? in.at(next++) : Tensor();
         return Outputs{binary_cross_entropy_with_logits(in.at(0), in.at(1), weight, pos_weight,
                                                         reduction_of(a))};
       }},
      {"kl_div",
       [](const Inputs& in, const json& a) {
         return Outputs{kl_div(in.at(0), in.at(1), reduction_of(a), a.at("log_target"))};
       }},
      {"margin_ranking_loss",
       [](const Inputs& in, const json& a) {
         return Outputs{
             margin_ranking_loss(in.at(0), in.at(1), in.at(2), a.at("margin"), reduction_of(a))};
       }},
      {"gelu",
       [](const Inputs& in, const json& a) {
         return Outputs{gelu(in.at(0), a.at("approximate").get<std::string>())};
       }},
      {"silu", [](const Inputs& in, const json&) { return Outputs{silu(in.at(0))}; }},
      {"mish", [](const Inputs& in, const json&) { return Outputs{mish(in.at(0))}; }},
      {"softplus",
       [](const Inputs& in, const json& a) {
         return Outputs{softplus(in.at(0), a.at("beta"), a.at("threshold"))};
       }},
      {"leaky_relu",
       [](const Inputs& in, const json& a) {
         return Outputs{leaky_relu(in.at(0), a.at("negative_slope"))};
       }},
      {"elu", [](const Inputs& in, const json& a) { return Outputs{elu(in.at(0), a.at("alpha"))}; }},
      {"hardtanh",
       [](const Inputs& in, const json& a) {
         return Outputs{hardtanh(in.at(0), a.at("min_val"), a.at("max_val"))};
       }},
      {"prelu", binary([](T a, T w) { return prelu(a, w); })},
      {"layer_norm",
       [](const Inputs& in, const json& a) {
         return Outputs{layer_norm(in.at(0), a.at("normalized_shape").get<std::vector<int64_t>>(),
                                   in.size() > 1 ? in[1] : Tensor(),
                                   in.size() > 2 ? in[2] : Tensor(), a.at("eps"))};
       }},
      {"group_norm",
       [](const Inputs& in, const json& a) {
         return Outputs{group_norm(in.at(0), a.at("num_groups"), in.size() > 1 ? in[1] : Tensor(),
                                   in.size() > 2 ? in[2] : Tensor(), a.at("eps"))};
       }},
      {"embedding",
       [](const Inputs& in, const json& a) {
         return Outputs{embedding(in.at(0), in.at(1), a.at("padding_idx"))};
       }},
      {"one_hot",
       [](const Inputs& in, const json& a) {
         return Outputs{one_hot(in.at(0), a.at("num_classes"))};
       }},
      {"normalize",
       [](const Inputs& in, const json& a) {
         return Outputs{normalize(in.at(0), a.at("p"), a.at("dim"))};
       }},
      {"cosine_similarity",
       [](const Inputs& in, const json& a) {
         return Outputs{cosine_similarity(in.at(0), in.at(1), a.at("dim"))};
       }},
      {"pairwise_distance",
       [](const Inputs& in, const json& a) {
         return Outputs{pairwise_distance(in.at(0), in.at(1), a.at("p"), 1e-6, a.at("keepdim"))};
       }},
      {"cosine_embedding_loss",
       [](const Inputs& in, const json& a) {
         return Outputs{cosine_embedding_loss(in.at(0), in.at(1), in.at(2), a.at("margin"),
                                              reduction_of(a))};
       }},
  };
  return table;
}

/// "table:NAME", "table_inplace:NAME", "table_out:NAME": the op table's sample NAME
/// (tests/support/table_samples.h, generated from src/ops/ops.yaml), in that form.
std::optional<OpRunner> table_runner(const std::string& op) {
  const size_t colon = op.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string kind = op.substr(0, colon), name = op.substr(colon + 1);
  for (const test::TableSample& s : test::table_samples()) {
    if (name != s.name) continue;
    if (kind == "table") {
      return [&s](const Inputs& in, const json&) { return Outputs{s.op(in)}; };
    }
    if (kind == "table_inplace" && s.inplace) {
      return [&s](const Inputs& in, const json&) {
        Inputs copy = in;
        copy[0] = in[0].clone();
        return Outputs{s.inplace(copy)};
      };
    }
    if (kind == "table_out" && s.out) {
      return [&s](const Inputs& in, const json& a) {
        Tensor out = empty(a.at("out_shape").get<std::vector<int64_t>>(),
                           dtype(dtype_named(a.at("out_dtype").get<std::string>())));
        return Outputs{s.out(in, out)};
      };
    }
  }
  return std::nullopt;
}

std::optional<OpRunner> find_runner(const std::string& op) {
  auto it = op_table().find(op);
  if (it != op_table().end()) return it->second;
  return table_runner(op);
}

class MatchesTorch : public ::testing::TestWithParam<OpGolden> {};

TEST_P(MatchesTorch, Golden) {
  const json& spec = GetParam().spec;
  const auto op = spec.at("op").get<std::string>();
  const std::optional<OpRunner> runner = find_runner(op);
  ASSERT_TRUE(runner.has_value()) << "no runner for op " << op;
  Inputs inputs;
  for (const json& t : spec.at("inputs")) inputs.push_back(tensor_from_json(t));
  const json& args = spec.at("args");

  if (spec.contains("raises")) {
    SCOPED_TRACE("torch says: " + spec.at("raises").get<std::string>());
    try {
      Outputs out = (*runner)(inputs, args);
      // Asynchronous ops report errors at the next synchronizing call.
      for (const Tensor& t : out) (void)t.cpu();
      ADD_FAILURE() << "expected tide::Error, as torch rejects this call";
    } catch (const Error& e) {
      if (spec.contains("message")) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(spec.at("message").get<std::string>()));
      }
    }
    return;
  }

  Outputs out = (*runner)(inputs, args);
  const json& expected = spec.at("outputs");
  ASSERT_EQ(out.size(), expected.size());
  for (size_t i = 0; i < out.size(); ++i) expect_matches(out[i], expected[i], i);
}

INSTANTIATE_TEST_SUITE_P(Torch113, MatchesTorch, ::testing::ValuesIn(load_goldens()),
                         [](const ::testing::TestParamInfo<OpGolden>& info) {
                           return info.param.name;
                         });

TEST(TorchGoldens, FileIsPresentAndEveryOpHasARunner) {
  auto goldens = load_goldens();
  ASSERT_GE(goldens.size(), 300u) << "missing " << TIDE_TEST_DATA_DIR
                                  << "/op_goldens.json; run scripts/gen_op_goldens.py";
  std::set<std::string> ops;
  for (const auto& g : goldens) ops.insert(g.spec.at("op").get<std::string>());
  for (const auto& op : ops) EXPECT_TRUE(find_runner(op).has_value()) << op;
}

TEST(TorchGoldens, ComparisonToleratesFloatRoundingOnly) {
  EXPECT_TRUE(close(1.0 + 5e-6, 1.0));
  EXPECT_FALSE(close(1.0 + 5e-5, 1.0));
  EXPECT_TRUE(close(5e-7, 0.0));
  EXPECT_FALSE(close(0.0, std::numeric_limits<double>::quiet_NaN()));
  EXPECT_TRUE(
      close(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(close(1e30, std::numeric_limits<double>::infinity()));
}

}  // namespace
}  // namespace tide
