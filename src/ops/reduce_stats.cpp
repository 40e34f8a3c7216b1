// The reductions made of other reductions: var, std (and their _mean forms), the vector norms,
// logsumexp, aminmax and count_nonzero. Their parts are table ops that record themselves
// (`autograd: composite`), except linalg_vector_norm, whose recording is written in
// autograd/traced_reduce.cpp (torch's norm_backward: a zero norm gives a zero gradient).

#include <cmath>
#include <limits>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

/// The number of elements each output of a reduction over `dims` (all when empty) sums.
int64_t reduced_count(const Tensor& a, const std::vector<int64_t>& dims, const char* where) {
  if (dims.empty()) return a.numel();
  int64_t n = 1;
  for (int64_t d : dims) {
    n *= a.dim() == 0 ? 1 : a.shape()[detail::wrap_dim(d, a.dim(), where)];
  }
  return n;
}

void check_floating(const Tensor& a, const char* where) {
  detail::check_defined(a, where, "input");
  TIDE_CHECK(a.is_floating_point(), "[", where, "] std and var only support floating point and "
             "complex dtypes, found ", detail::torch_type_name(a.dtype()),
             "; convert the input with .to(tide::kFloat32)");
}

/// var and its mean, torch's var_mean: the sum of squared deviations over N - correction
/// (NaN or inf where that is not positive, as torch).
std::tuple<Tensor, Tensor> var_and_mean(const Tensor& a, const std::vector<int64_t>& dims,
                                        std::optional<int64_t> correction, bool keepdim,
                                        const char* where) {
  check_floating(a, where);
  const int64_t n = reduced_count(a, dims, where);
  const Tensor mean_kept = mean(a, dims, true);
  const Tensor dev = a - mean_kept;
  const double divisor = std::max<double>(0.0, static_cast<double>(n - correction.value_or(1)));
  Tensor var = sum(dev * dev, dims, keepdim) / divisor;
  Tensor m = keepdim ? mean_kept : mean_kept.reshape(var.sizes());
  return {var, m};
}

std::optional<int64_t> correction_of(bool unbiased) { return unbiased ? 1 : 0; }

}  // namespace

namespace detail {

Tensor plain_var(const Tensor& a, bool unbiased) {
  return std::get<0>(var_and_mean(a, {}, correction_of(unbiased), false, "var"));
}
Tensor plain_var(const Tensor& a, const std::vector<int64_t>& dims, bool unbiased, bool keepdim) {
  return std::get<0>(var_and_mean(a, dims, correction_of(unbiased), keepdim, "var"));
}
Tensor plain_var(const Tensor& a, const std::vector<int64_t>& dims,
                 std::optional<int64_t> correction, bool keepdim) {
  return std::get<0>(var_and_mean(a, dims, correction, keepdim, "var"));
}
Tensor plain_std(const Tensor& a, bool unbiased) {
  return std::get<0>(var_and_mean(a, {}, correction_of(unbiased), false, "std")).sqrt();
}
Tensor plain_std(const Tensor& a, const std::vector<int64_t>& dims, bool unbiased, bool keepdim) {
  return std::get<0>(var_and_mean(a, dims, correction_of(unbiased), keepdim, "std")).sqrt();
}
Tensor plain_std(const Tensor& a, const std::vector<int64_t>& dims,
                 std::optional<int64_t> correction, bool keepdim) {
  return std::get<0>(var_and_mean(a, dims, correction, keepdim, "std")).sqrt();
}
std::tuple<Tensor, Tensor> plain_var_mean(const Tensor& a, const std::vector<int64_t>& dims,
                                          std::optional<int64_t> correction, bool keepdim) {
  return var_and_mean(a, dims, correction, keepdim, "var_mean");
}
std::tuple<Tensor, Tensor> plain_std_mean(const Tensor& a, const std::vector<int64_t>& dims,
                                          std::optional<int64_t> correction, bool keepdim) {
  auto [var, m] = var_and_mean(a, dims, correction, keepdim, "std_mean");
  return {var.sqrt(), m};
}

/// Note [Vector norms]: ord 0 counts the nonzeros, inf and -inf are the largest and smallest
/// magnitude, 1 the sum of magnitudes, 2 the root of the sum of squares, any other p
/// (sum |x|^p)^(1/p), as torch.linalg.vector_norm.
Tensor plain_linalg_vector_norm(const Tensor& a, Scalar ord, const std::vector<int64_t>& dims,
                                bool keepdim, std::optional<Dtype> dtype) {
  const char* where = "linalg.vector_norm";
  detail::check_defined(a, where, "input");
  TIDE_CHECK(a.is_floating_point(), "[", where, "] linalg.vector_norm: Expected a floating point "
             "or complex tensor as input. Got ", detail::torch_type_name(a.dtype()),
             "; convert the input with .to(tide::kFloat32)");
  const Tensor x = dtype && *dtype != a.dtype() ? a.to(*dtype) : a;
  const double p = ord.to_double();
  if (p == 0) return ne(x, Scalar(0)).sum(dims, keepdim).to(x.dtype());
  if (std::isinf(p)) {
    TIDE_CHECK(x.numel() > 0 || !dims.empty(), "[", where, "] linalg.vector_norm cannot compute "
               "the ", p > 0 ? "inf" : "-inf", " norm on an empty tensor because the operation "
               "does not have an identity; reduce over a dim that has elements");
    return p > 0 ? x.abs().amax(dims, keepdim) : x.abs().amin(dims, keepdim);
  }
  if (p == 1) return x.abs().sum(dims, keepdim);
  if (p == 2) return (x * x).sum(dims, keepdim).sqrt();
  return x.abs().pow(p).sum(dims, keepdim).pow(1.0 / p);
}

Tensor plain_norm(const Tensor& a, Scalar p) {
  return linalg_vector_norm(a, p, {}, false);
}

Tensor plain_norm(const Tensor& a, std::optional<Scalar> p, const std::vector<int64_t>& dims,
                  bool keepdim) {
  return linalg_vector_norm(a, p.value_or(Scalar(2)), dims, keepdim);
}

/// log(sum(exp(x))) computed as m + log(sum(exp(x - m))) with m the (detached) max, so large
/// values do not overflow; an infinite m is replaced by 0 as torch does (all -inf stays -inf).
Tensor plain_logsumexp(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  detail::check_defined(a, "logsumexp", "input");
  const Tensor x = a.is_floating_point() ? a : a.to(kFloat32);
  Tensor m = x.numel() == 0 ? zeros_like(x.sum(dims, true)) : x.amax(dims, true).detach();
  m = where(m.isinf(), Scalar(0), m);
  Tensor r = (x - m).exp().sum(dims, keepdim).log();
  return r + m.reshape(r.sizes());
}

std::tuple<Tensor, Tensor> plain_aminmax(const Tensor& a, std::optional<int64_t> dim,
                                         bool keepdim) {
  if (dim) return {amin(a, {*dim}, keepdim), amax(a, {*dim}, keepdim)};
  return {amin(a, {}, keepdim), amax(a, {}, keepdim)};
}

Tensor plain_count_nonzero(const Tensor& a, const std::vector<int64_t>& dims) {
  detail::check_defined(a, "count_nonzero", "input");
  return ne(a, Scalar(0)).sum(dims, false);
}

}  // namespace detail
}  // namespace tide
