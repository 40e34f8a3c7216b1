#pragma once
// Reading torch's goldens (tests/fixtures/*_goldens.json, written by scripts/gen_*_goldens.py):
// a golden file is a JSON list of objects with a "name"; a tensor in a golden is an object
// {"dtype": "float32", "shape": [...], "values": [...]} with its values in row-major order,
// floating values that JSON cannot hold written as the strings "nan", "inf" and "-inf".

#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tide/dtype.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide::test {

/// One entry of a golden file: its name (the test's name) and the whole entry.
struct Golden {
  std::string name;
  nlohmann::json spec;
};

/// Keeps gtest's failure output short: the name says which golden failed.
inline void PrintTo(const Golden& g, std::ostream* os) { *os << g.name; }

/// The goldens in TIDE_TEST_DATA_DIR/<file>; none when the file is missing, which the
/// tests that check the file's coverage report.
inline std::vector<Golden> load_goldens(const std::string& file) {
  std::ifstream in(std::string(TIDE_TEST_DATA_DIR) + "/" + file);
  if (!in) return {};
  std::vector<Golden> goldens;
  for (nlohmann::json& g : nlohmann::json::parse(in))
    goldens.push_back({g.at("name").get<std::string>(), std::move(g)});
  return goldens;
}

/// The dtype torch names `s` ("float32", "bool", ...).
inline Dtype dtype_named(const std::string& s) {
  for (Dtype d : {kBool, kUInt8, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    if (s == name(d)) return d;
  }
  throw std::runtime_error("unknown dtype in golden: " + s);
}

/// A golden's floating value: a JSON number, or "nan", "inf" or "-inf".
inline double json_double(const nlohmann::json& v) {
  if (v.is_string()) {
    auto s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::runtime_error("unknown value in golden: " + s);
  }
  return v.get<double>();
}

/// The number of elements a {dtype, shape, values} spec's shape holds.
inline int64_t shape_numel(const nlohmann::json& spec) {
  int64_t n = 1;
  for (int64_t s : spec.at("shape").get<std::vector<int64_t>>()) n *= s;
  return n;
}

/// Builds a {dtype, shape, values} spec's tensor, contiguous on the cpu, in its own dtype.
/// Every value is exactly representable there (the goldens hold float32 values for half and
/// bfloat16), so writing through float for those is exact. The spec's values must fill its
/// shape exactly; callers that test the golden file itself check that first (shape_numel).
inline Tensor tensor_from_json(const nlohmann::json& spec) {
  Dtype dtype = dtype_named(spec.at("dtype").get<std::string>());
  Tensor t = empty(spec.at("shape").get<std::vector<int64_t>>(), dtype);
  const nlohmann::json& values = spec.at("values");
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data_ptr<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        p[i] = values[i].get<bool>();
      } else if constexpr (std::is_integral_v<T>) {
        p[i] = static_cast<T>(values[i].get<int64_t>());
      } else if constexpr (std::is_same_v<T, double>) {
        p[i] = json_double(values[i]);
      } else {
        p[i] = T(static_cast<float>(json_double(values[i])));  // the golden's float32 exactly
      }
    }
  });
  return t;
}

}  // namespace tide::test
