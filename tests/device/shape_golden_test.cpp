// Issue 25's shape ops, linear algebra (einsum included) and the triangles and diagonals
// against torch 1.13 (tests/fixtures/shape_goldens.json, written by
// scripts/gen_shape_goldens.py, whose docstring says how each golden's "op" and "args" are
// read) on the cpu and on every GPU of the configuration: the same values, dtypes and shapes,
// and the same calls rejected.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "support/golden_compare.h"
#include "support/golden_json.h"
#include "tide/cuda.h"
#include "tide/matrix_factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

using nlohmann::json;
using Inputs = std::vector<Tensor>;
using Outputs = std::vector<Tensor>;
using Runner = std::function<Outputs(const Inputs&, const json&)>;

std::vector<int64_t> ints(const json& a, const char* key) {
  return a.at(key).get<std::vector<int64_t>>();
}
int64_t int_of(const json& a, const char* key) { return a.at(key).get<int64_t>(); }
std::optional<int64_t> maybe_int(const json& a, const char* key) {
  return a.at(key).is_null() ? std::nullopt : std::optional<int64_t>(a.at(key).get<int64_t>());
}
Scalar scalar_of(const json& v) {
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  return Scalar(v.get<double>());
}

/// A runner for an op of one tensor and no other arguments.
template <class F>
Runner unary(F f) {
  return [f](const Inputs& in, const json&) { return Outputs{f(in[0])}; };
}
/// A runner for an op of two tensors.
template <class F>
Runner binary(F f) {
  return [f](const Inputs& in, const json&) { return Outputs{f(in[0], in[1])}; };
}
/// A runner for an op of the whole input list.
template <class F>
Runner list(F f) {
  return [f](const Inputs& in, const json&) { return Outputs{f(in)}; };
}
/// beta/alpha ops: (self, a, b) and the two Scalars.
Runner scaled(Tensor (*f)(const Tensor&, const Tensor&, const Tensor&, Scalar, Scalar)) {
  return [f](const Inputs& in, const json& a) {
    return Outputs{f(in[0], in[1], in[2], scalar_of(a.at("beta")), scalar_of(a.at("alpha")))};
  };
}
/// diagonal-like ops: (self, offset, dim1, dim2).
Runner diagonal_like(Tensor (*f)(const Tensor&, int64_t, int64_t, int64_t)) {
  return [f](const Inputs& in, const json& a) {
    return Outputs{f(in[0], int_of(a, "offset"), int_of(a, "dim1"), int_of(a, "dim2"))};
  };
}

/// A factory's runner (a golden without inputs): the options carry the device it runs on.
using FactoryRunner = std::function<Tensor(const json&, TensorOptions)>;

const std::map<std::string, FactoryRunner>& factories() {
  static const std::map<std::string, FactoryRunner> r{
      {"eye",
       [](const json& a, TensorOptions o) {
         return eye(int_of(a, "n"), maybe_int(a, "m"),
                    o.dtype(test::dtype_named(a.at("dtype").get<std::string>())));
       }},
      {"tril_indices",
       [](const json& a, TensorOptions o) {
         return tril_indices(int_of(a, "row"), int_of(a, "col"), int_of(a, "offset"), o);
       }},
      {"triu_indices",
       [](const json& a, TensorOptions o) {
         return triu_indices(int_of(a, "row"), int_of(a, "col"), int_of(a, "offset"), o);
       }},
      {"logspace",
       [](const json& a, TensorOptions o) {
         return logspace(a.at("start").get<double>(), a.at("end").get<double>(),
                         int_of(a, "steps"), a.at("base").get<double>(),
                         o.dtype(test::dtype_named(a.at("dtype").get<std::string>())));
       }},
  };
  return r;
}

const std::map<std::string, Runner>& runners() {
  using T = const Tensor&;
  static const std::map<std::string, Runner> r{
      {"flip", [](const Inputs& in, const json& a) { return Outputs{flip(in[0], ints(a, "dims"))}; }},
      {"fliplr", unary([](T x) { return fliplr(x); })},
      {"flipud", unary([](T x) { return flipud(x); })},
      {"roll",
       [](const Inputs& in, const json& a) {
         return Outputs{roll(in[0], ints(a, "shifts"), ints(a, "dims"))};
       }},
      {"rot90",
       [](const Inputs& in, const json& a) {
         return Outputs{rot90(in[0], int_of(a, "k"), ints(a, "dims"))};
       }},
      {"repeat",
       [](const Inputs& in, const json& a) { return Outputs{in[0].repeat(ints(a, "repeats"))}; }},
      {"tile", [](const Inputs& in, const json& a) { return Outputs{tile(in[0], ints(a, "dims"))}; }},
      {"repeat_interleave",
       [](const Inputs& in, const json& a) {
         return Outputs{repeat_interleave(in[0], int_of(a, "repeats"), maybe_int(a, "dim"))};
       }},
      {"repeat_interleave_tensor",
       [](const Inputs& in, const json& a) {
         return Outputs{repeat_interleave(in[0], in[1], maybe_int(a, "dim"))};
       }},
      {"repeat_interleave_counts", unary([](T x) { return repeat_interleave(x); })},
      {"movedim",
       [](const Inputs& in, const json& a) {
         return Outputs{movedim(in[0], ints(a, "source"), ints(a, "destination"))};
       }},
      {"swapaxes",
       [](const Inputs& in, const json& a) {
         return Outputs{swapaxes(in[0], int_of(a, "dim0"), int_of(a, "dim1"))};
       }},
      {"unflatten",
       [](const Inputs& in, const json& a) {
         return Outputs{unflatten(in[0], int_of(a, "dim"), ints(a, "sizes"))};
       }},
      {"unbind", [](const Inputs& in, const json& a) { return unbind(in[0], int_of(a, "dim")); }},
      {"tensor_split",
       [](const Inputs& in, const json& a) {
         return tensor_split(in[0], int_of(a, "sections"), int_of(a, "dim"));
       }},
      {"tensor_split_indices",
       [](const Inputs& in, const json& a) {
         return tensor_split(in[0], ints(a, "indices"), int_of(a, "dim"));
       }},
      {"split_with_sizes",
       [](const Inputs& in, const json& a) {
         return split_with_sizes(in[0], ints(a, "sizes"), int_of(a, "dim"));
       }},
      {"broadcast_to",
       [](const Inputs& in, const json& a) { return Outputs{broadcast_to(in[0], ints(a, "size"))}; }},
      {"broadcast_tensors", [](const Inputs& in, const json&) { return broadcast_tensors(in); }},
      {"ravel", unary([](T x) { return ravel(x); })},
      {"atleast_1d", unary([](T x) { return atleast_1d(x); })},
      {"atleast_2d", unary([](T x) { return atleast_2d(x); })},
      {"atleast_3d", unary([](T x) { return atleast_3d(x); })},
      {"hstack", list([](const Inputs& in) { return hstack(in); })},
      {"vstack", list([](const Inputs& in) { return vstack(in); })},
      {"dstack", list([](const Inputs& in) { return dstack(in); })},
      {"column_stack", list([](const Inputs& in) { return column_stack(in); })},
      // ---- linear algebra
      {"dot", binary([](T a, T b) { return dot(a, b); })},
      {"vdot", binary([](T a, T b) { return vdot(a, b); })},
      {"mv", binary([](T a, T b) { return mv(a, b); })},
      {"outer", binary([](T a, T b) { return outer(a, b); })},
      {"inner", binary([](T a, T b) { return inner(a, b); })},
      {"kron", binary([](T a, T b) { return kron(a, b); })},
      {"addmv", scaled(&addmv)},
      {"addr", scaled(&addr)},
      {"baddbmm", scaled(&baddbmm)},
      {"addbmm", scaled(&addbmm)},
      {"einsum",
       [](const Inputs& in, const json& a) {
         return Outputs{einsum(a.at("equation").get<std::string>(), in)};
       }},
      {"tensordot",
       [](const Inputs& in, const json& a) {
         return Outputs{tensordot(in[0], in[1], ints(a, "dims_a"), ints(a, "dims_b"))};
       }},
      {"cross",
       [](const Inputs& in, const json& a) { return Outputs{cross(in[0], in[1], maybe_int(a, "dim"))}; }},
      {"linalg_cross",
       [](const Inputs& in, const json& a) {
         return Outputs{linalg_cross(in[0], in[1], int_of(a, "dim"))};
       }},
      {"trace", unary([](T x) { return trace(x); })},
      // ---- triangles and diagonals
      {"tril",
       [](const Inputs& in, const json& a) { return Outputs{tril(in[0], int_of(a, "diagonal"))}; }},
      {"triu",
       [](const Inputs& in, const json& a) { return Outputs{triu(in[0], int_of(a, "diagonal"))}; }},
      {"diagonal", diagonal_like(&diagonal)},
      {"diag_embed", diagonal_like(&diag_embed)},
      {"diag",
       [](const Inputs& in, const json& a) { return Outputs{diag(in[0], int_of(a, "diagonal"))}; }},
      {"diagflat",
       [](const Inputs& in, const json& a) { return Outputs{diagflat(in[0], int_of(a, "offset"))}; }},
  };
  return r;
}

using test::devices;

class ShapeOpsMatchTorch : public ::testing::TestWithParam<test::Golden> {};

TEST_P(ShapeOpsMatchTorch, OnEveryDevice) {
  const json& spec = GetParam().spec;
  const std::string op = spec.at("op").get<std::string>();
  for (const Device& device : devices()) {
    if (factories().count(op)) {
      SCOPED_TRACE("on " + device.str());
      const Tensor out = factories().at(op)(spec.at("args"), tide::device(device));
      EXPECT_EQ(out.device(), device);
      test::expect_matches(out, spec.at("outputs").at(0), 0);
      continue;
    }
    const Runner& run = runners().at(op);
    SCOPED_TRACE("on " + device.str());
    Inputs inputs;
    for (const json& t : spec.at("inputs")) inputs.push_back(test::tensor_from_json(t).to(device));
    if (spec.contains("raises")) {
      SCOPED_TRACE("torch says: " + spec.at("raises").get<std::string>());
      EXPECT_THROW(run(inputs, spec.at("args")), Error);
      continue;
    }
    const Outputs out = run(inputs, spec.at("args"));
    const json& expected = spec.at("outputs");
    ASSERT_EQ(out.size(), expected.size());
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(out[i].device(), device);
      test::expect_matches(out[i], expected[i], i);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Torch113, ShapeOpsMatchTorch,
                         ::testing::ValuesIn(test::load_goldens("shape_goldens.json")),
                         [](const ::testing::TestParamInfo<test::Golden>& info) {
                           return info.param.name;
                         });

TEST(ShapeGoldens, FileIsPresentAndCoversEveryOp) {
  const std::vector<test::Golden> goldens = test::load_goldens("shape_goldens.json");
  ASSERT_GE(goldens.size(), 100u) << "missing " << TIDE_TEST_DATA_DIR
                                  << "/shape_goldens.json; run scripts/gen_shape_goldens.py";
  std::map<std::string, int> per_op;
  for (const test::Golden& g : goldens) {
    const std::string op = g.spec.at("op").get<std::string>();
    EXPECT_TRUE(runners().count(op) || factories().count(op)) << "no runner for " << op;
    ++per_op[op];
  }
  for (const auto& [op, runner] : runners()) EXPECT_GT(per_op[op], 0) << op;
  for (const auto& [op, runner] : factories()) EXPECT_GT(per_op[op], 0) << op;
}

}  // namespace
}  // namespace tide
