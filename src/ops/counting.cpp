// Comparisons that reduce (isclose's elementwise test, allclose, equal) and the ops whose
// output size depends on the values (unique, bincount, histc).
//
// Note [Data-dependent sizes]: unique, bincount and histc must know values before they can
// allocate their result, so they read their input on the host (torch synchronizes for them
// too). unique sorts on the operand's device first (the sort kernel) and counts runs on the
// host; bincount and histc count on the host. Their results go back to the operand's device.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace detail {

Tensor plain_isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  detail::check_defined(a, "isclose", "input");
  detail::check_defined(b, "isclose", "other");
  TIDE_CHECK(a.dtype() == b.dtype(), "[isclose] ", detail::torch_type_name(a.dtype()),
             " did not match ", detail::torch_type_name(b.dtype()),
             "; convert other to self's dtype first");
  TIDE_CHECK(rtol >= 0, "[isclose] rtol must be greater than or equal to zero, but got ", rtol,
             "; pass a tolerance >= 0");
  TIDE_CHECK(atol >= 0, "[isclose] atol must be greater than or equal to zero, but got ", atol,
             "; pass a tolerance >= 0");
  Tensor close = eq(a, b);
  if (a.dtype() == kBool) return close;
  if (equal_nan && a.is_floating_point())
    close = logical_or(close, logical_and(a.isnan(), b.isnan()));
  if (rtol == 0 && atol == 0) return close;
  // torch: integers compare in the default dtype; the error must be finite (inf - inf is NaN).
  const Tensor x = a.is_floating_point() ? a : a.to(kFloat32);
  const Tensor y = b.is_floating_point() ? b : b.to(kFloat32);
  const Tensor allowed = (y * rtol).abs() + atol;
  const Tensor actual = (x - y).abs();
  return logical_or(close, logical_and(actual.isfinite(), le(actual, allowed)));
}

bool plain_allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  return isclose(a, b, rtol, atol, equal_nan).all().item<bool>();
}

bool plain_equal(const Tensor& a, const Tensor& b) {
  detail::check_defined(a, "equal", "input");
  detail::check_defined(b, "equal", "other");
  detail::same_device({{"self", &a}, {"other", &b}}, "equal");
  if (a.sizes() != b.sizes()) return false;
  return eq(a, b).all().item<bool>();
}

std::tuple<Tensor, Tensor, Tensor> plain_unique(const Tensor& a, bool sorted, bool return_inverse,
                                                bool return_counts) {
  (void)sorted;  // always sorted: one of the orders torch allows for sorted=False
  detail::check_defined(a, "unique", "input");
  const Device device = a.device();
  auto [values, order] = sort(a.reshape({-1}), 0, false);
  const Tensor sv = values.cpu();
  const Tensor so = order.cpu();
  const int64_t n = sv.numel();
  std::vector<int64_t> starts;  // where each run of equal values begins
  dispatch_dtype(sv.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = sv.data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || !(p[i] == p[i - 1])) starts.push_back(i);
    }
  });
  const int64_t runs = static_cast<int64_t>(starts.size());
  Tensor first = empty({runs}, dtype(kInt64));
  Tensor counts = empty({return_counts ? runs : 0}, dtype(kInt64));
  Tensor inverse = empty({return_inverse ? n : 0}, dtype(kInt64));
  for (int64_t r = 0; r < runs; ++r) {
    const int64_t b = starts[static_cast<size_t>(r)];
    const int64_t e = r + 1 < runs ? starts[static_cast<size_t>(r + 1)] : n;
    first.data_ptr<int64_t>()[r] = b;
    if (return_counts) counts.data_ptr<int64_t>()[r] = e - b;
    if (return_inverse) {
      for (int64_t i = b; i < e; ++i) inverse.data_ptr<int64_t>()[so.data_ptr<int64_t>()[i]] = r;
    }
  }
  Tensor out = index_select(sv, 0, first).to(device);
  if (return_inverse) inverse = inverse.reshape(a.sizes());
  return {out, inverse.to(device), counts.to(device)};
}

Tensor plain_bincount(const Tensor& a, const Tensor& weights, int64_t minlength) {
  detail::check_defined(a, "bincount", "input");
  TIDE_CHECK(a.dim() == 1 && is_integral(a.dtype(), false), "[bincount] bincount only supports "
             "1-d non-negative integral inputs; found a ", a.dim(), "-d ",
             detail::torch_type_name(a.dtype()), " tensor");
  TIDE_CHECK(minlength >= 0, "[bincount] minlength should be >= 0, found ", minlength);
  if (weights.defined()) {
    detail::same_device({{"self", &a}, {"weights", &weights}}, "bincount");
    TIDE_CHECK(weights.dim() == 1 && weights.numel() == a.numel(), "[bincount] weights should be "
               "1-d and have the same length as input; found weights of shape ",
               detail::shape_str(weights.shape()), " for ", a.numel(), " inputs");
  }
  const Tensor x = a.to(kInt64).cpu().contiguous();
  const int64_t* p = x.data_ptr<int64_t>();
  int64_t bins = minlength;
  for (int64_t i = 0; i < x.numel(); ++i) {
    TIDE_CHECK(p[i] >= 0, "[bincount] bincount only supports 1-d non-negative integral inputs; "
               "found ", p[i]);
    bins = std::max(bins, p[i] + 1);
  }
  if (!weights.defined()) {
    Tensor out = zeros({bins}, dtype(kInt64));
    for (int64_t i = 0; i < x.numel(); ++i) ++out.data_ptr<int64_t>()[p[i]];
    return out.to(a.device());
  }
  const Dtype out_dtype = weights.dtype() == kFloat32 ? kFloat32 : kFloat64;
  const Tensor w = weights.to(kFloat64).cpu().contiguous();
  Tensor out = zeros({bins}, dtype(kFloat64));
  for (int64_t i = 0; i < x.numel(); ++i) out.data_ptr<double>()[p[i]] += w.data_ptr<double>()[i];
  return out.to(a.device(), out_dtype);
}

Tensor plain_histc(const Tensor& a, int64_t bins, Scalar min, Scalar max) {
  detail::check_defined(a, "histc", "input");
  TIDE_CHECK(a.is_floating_point(), "[histc] \"histogram_cpu\" not implemented for '",
             detail::torch_type_name(a.dtype()), "'; convert the input with .to(tide::kFloat32)");
  TIDE_CHECK(bins > 0, "[histc] bins must be > 0, found ", bins);
  const Tensor x = a.to(kFloat64).cpu().contiguous();
  const double* p = x.data_ptr<double>();
  double lo = min.to_double(), hi = max.to_double();
  if (lo == hi && x.numel() > 0) {
    lo = std::numeric_limits<double>::infinity();
    hi = -lo;
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (std::isnan(p[i])) continue;
      lo = std::min(lo, p[i]);
      hi = std::max(hi, p[i]);
    }
  }
  if (lo == hi || x.numel() == 0) {
    lo -= 1;
    hi += 1;
  }
  TIDE_CHECK(std::isfinite(lo) && std::isfinite(hi), "[histc] range of [", lo, ", ", hi,
             "] is not finite; pass finite min and max");
  TIDE_CHECK(lo < hi, "[histc] max must be larger than min; found min ", lo, " and max ", hi);
  std::vector<double> counts(static_cast<size_t>(bins), 0.0);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double v = p[i];
    if (!(v >= lo && v <= hi)) continue;  // outside the range, or NaN
    auto b = static_cast<int64_t>((v - lo) * static_cast<double>(bins) / (hi - lo));
    counts[static_cast<size_t>(std::min(b, bins - 1))] += 1;
  }
  Tensor out = empty({bins}, dtype(kFloat64));
  std::copy(counts.begin(), counts.end(), out.data_ptr<double>());
  return out.to(a.device(), a.dtype());
}

}  // namespace detail
}  // namespace tide
