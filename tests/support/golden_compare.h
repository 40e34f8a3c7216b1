#pragma once
// Comparing an op's result with torch's golden output (a {dtype, shape, values} spec): the
// dtype and shape exactly, integer and bool values exactly, floating values within
// kGoldenRtol/kGoldenAtol (NaN matches NaN, infinities match exactly).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "support/golden_json.h"
#include "tide/tensor.h"

namespace tide::test {

inline constexpr double kGoldenRtol = 1e-5;
inline constexpr double kGoldenAtol = 1e-6;


inline std::vector<double> values_as_double(const Tensor& t) {
  Tensor c = t.cpu().contiguous();
  std::vector<double> out(c.numel());
  dispatch_dtype(c.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = c.data_ptr<T>();
    for (int64_t i = 0; i < c.numel(); ++i) {
      if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        out[i] = static_cast<float>(p[i]);
      } else {
        out[i] = static_cast<double>(p[i]);
      }
    }
  });
  return out;
}

inline std::vector<int64_t> values_as_int64(const Tensor& t) {
  Tensor c = t.cpu().contiguous();
  std::vector<int64_t> out(c.numel());
  dispatch_dtype(c.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = c.data_ptr<T>();
    for (int64_t i = 0; i < c.numel(); ++i) {
      if constexpr (std::is_integral_v<T>) out[i] = static_cast<int64_t>(p[i]);
    }
  });
  return out;
}

inline bool close(double actual, double expected) {
  if (std::isnan(expected)) return std::isnan(actual);
  if (std::isinf(expected)) return actual == expected;
  return std::fabs(actual - expected) <= kGoldenAtol + kGoldenRtol * std::fabs(expected);
}

inline void expect_matches(const Tensor& actual, const nlohmann::json& expected, size_t index) {
  SCOPED_TRACE("output " + std::to_string(index));
  ASSERT_TRUE(actual.defined());
  Dtype dtype = dtype_named(expected.at("dtype").get<std::string>());
  EXPECT_EQ(name(actual.dtype()), std::string(name(dtype)));
  ASSERT_EQ(actual.sizes(), expected.at("shape").get<std::vector<int64_t>>());
  if (actual.dtype() != dtype) return;  // values in another dtype would only repeat the failure
  const nlohmann::json& values = expected.at("values");
  ASSERT_EQ(static_cast<size_t>(actual.numel()), values.size());
  if (is_floating_point(dtype)) {
    std::vector<double> got = values_as_double(actual);
    for (size_t i = 0; i < got.size(); ++i) {
      double want = json_double(values[i]);
      EXPECT_TRUE(close(got[i], want))
          << "element " << i << ": got " << got[i] << ", torch gives " << want;
    }
  } else {
    std::vector<int64_t> got = values_as_int64(actual);
    for (size_t i = 0; i < got.size(); ++i) {
      int64_t want = dtype == kBool ? values[i].get<bool>() : values[i].get<int64_t>();
      EXPECT_EQ(got[i], want) << "element " << i;
    }
  }
}

}  // namespace tide::test
