#pragma once
// Runs a golden of tests/fixtures/reduce_goldens.json (scripts/gen_reduce_goldens.py says how
// each "op" reads its "args"): the cpu test (tests/ops/reduce_golden_test.cpp) and the device
// test (tests/device/reduce_golden_device_test.cpp) share it, so both call the ops alike.

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/golden_json.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide::test {

inline std::vector<int64_t> dims_arg(const nlohmann::json& args) {
  return args.value("dim", std::vector<int64_t>{});
}

inline std::optional<Dtype> reduce_dtype_arg(const nlohmann::json& args) {
  if (!args.contains("dtype")) return std::nullopt;
  return dtype_named(args.at("dtype").get<std::string>());
}

inline Scalar ord_arg(const nlohmann::json& v) {
  if (v.is_string()) return Scalar(json_double(v));
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  return Scalar(v.get<double>());
}

inline Tensor bool_tensor(bool b, Device device) {
  return full({}, b, tide::dtype(kBool).device(device));
}

inline std::vector<Tensor> pair(std::tuple<Tensor, Tensor> t) {
  return {std::get<0>(t), std::get<1>(t)};
}

/// The golden's op on `in` (already on the device under test); its outputs in torch's order.
inline std::vector<Tensor> run_reduce_golden(const std::string& op, const std::vector<Tensor>& in,
                                             const nlohmann::json& args) {
  const Tensor& a = in.at(0);
  const bool keepdim = args.value("keepdim", false);
  const bool has_dim = args.contains("dim");
  if (op == "prod") {
    if (!has_dim) return {prod(a, reduce_dtype_arg(args))};
    return {prod(a, args.at("dim").get<int64_t>(), keepdim, reduce_dtype_arg(args))};
  }
  if (op == "all" || op == "any") {
    const bool is_all = op == "all";
    if (!has_dim) return {is_all ? all(a) : any(a)};
    const int64_t d = args.at("dim").get<int64_t>();
    return {is_all ? all(a, d, keepdim) : any(a, d, keepdim)};
  }
  if (op == "amax") return {amax(a, dims_arg(args), keepdim)};
  if (op == "amin") return {amin(a, dims_arg(args), keepdim)};
  if (op == "aminmax") {
    std::optional<int64_t> dim;
    if (has_dim) dim = args.at("dim").get<int64_t>();
    auto [lo, hi] = aminmax(a, dim, keepdim);
    return {lo, hi};
  }
  if (op == "var" || op == "std") {
    const bool is_var = op == "var";
    if (!has_dim) {
      const bool unbiased = args.value("unbiased", true);
      return {is_var ? var(a, unbiased) : std(a, unbiased)};
    }
    if (args.contains("correction")) {
      const std::optional<int64_t> c = args.at("correction").get<int64_t>();
      return {is_var ? var(a, dims_arg(args), c, keepdim) : std(a, dims_arg(args), c, keepdim)};
    }
    const bool unbiased = args.value("unbiased", true);
    return {is_var ? var(a, dims_arg(args), unbiased, keepdim)
                   : std(a, dims_arg(args), unbiased, keepdim)};
  }
  if (op == "var_mean" || op == "std_mean") {
    const std::optional<int64_t> c = args.at("correction").get<int64_t>();
    auto [v, m] = op == "var_mean" ? var_mean(a, dims_arg(args), c, keepdim)
                                   : std_mean(a, dims_arg(args), c, keepdim);
    return {v, m};
  }
  if (op == "vector_norm") {
    return {linalg_vector_norm(a, ord_arg(args.at("ord")), dims_arg(args), keepdim,
                               reduce_dtype_arg(args))};
  }
  if (op == "norm") {
    if (!has_dim) return {norm(a, ord_arg(args.at("p")))};
    return {norm(a, ord_arg(args.at("p")), dims_arg(args), keepdim)};
  }
  if (op == "logsumexp") return {logsumexp(a, dims_arg(args), keepdim)};
  if (op == "count_nonzero") return {count_nonzero(a, dims_arg(args))};
  if (op == "cumsum") return {cumsum(a, args.at("dim").get<int64_t>(), reduce_dtype_arg(args))};
  if (op == "cumprod") return {cumprod(a, args.at("dim").get<int64_t>(), reduce_dtype_arg(args))};
  if (op == "cummax") return pair(cummax(a, args.at("dim").get<int64_t>()));
  if (op == "cummin") return pair(cummin(a, args.at("dim").get<int64_t>()));
  if (op == "sort") {
    return pair(sort(a, args.at("dim").get<int64_t>(), args.at("descending").get<bool>()));
  }
  if (op == "argsort") {
    return {argsort(a, args.at("dim").get<int64_t>(), args.at("descending").get<bool>())};
  }
  if (op == "topk") {
    return pair(topk(a, args.at("k").get<int64_t>(), args.at("dim").get<int64_t>(),
                     args.at("largest").get<bool>()));
  }
  if (op == "kthvalue") {
    return pair(kthvalue(a, args.at("k").get<int64_t>(), args.at("dim").get<int64_t>(), keepdim));
  }
  if (op == "median") {
    if (!has_dim) return {median(a)};
    return pair(median(a, args.at("dim").get<int64_t>(), keepdim));
  }
  if (op == "mode") return pair(mode(a, args.at("dim").get<int64_t>(), keepdim));
  if (op == "isclose" || op == "allclose") {
    const double rtol = args.at("rtol").get<double>(), atol = args.at("atol").get<double>();
    const bool equal_nan = args.at("equal_nan").get<bool>();
    if (op == "isclose") return {isclose(a, in.at(1), rtol, atol, equal_nan)};
    return {bool_tensor(allclose(a, in.at(1), rtol, atol, equal_nan), a.device())};
  }
  if (op == "equal") return {bool_tensor(equal(a, in.at(1)), a.device())};
  if (op == "unique") {
    const bool inverse = args.at("return_inverse").get<bool>();
    const bool counts = args.at("return_counts").get<bool>();
    auto [values, inv, cnt] = unique(a, true, inverse, counts);
    std::vector<Tensor> out{values};
    if (inverse) out.push_back(inv);
    if (counts) out.push_back(cnt);
    return out;
  }
  if (op == "bincount") {
    return {bincount(a, in.size() > 1 ? in[1] : Tensor(), args.at("minlength").get<int64_t>())};
  }
  if (op == "histc") {
    return {histc(a, args.at("bins").get<int64_t>(), ord_arg(args.at("min")),
                  ord_arg(args.at("max")))};
  }
  throw std::runtime_error("no runner for reduction golden op " + op);
}

}  // namespace tide::test
