// Sorting along a dim and the selections made from it: sort, argsort, topk, kthvalue, median,
// mode; and the running extrema cummax, cummin. One sort kernel serves all of them (Note [Sort
// order]); the selections are views of its result, so ties resolve alike everywhere (the
// first of equal values in input order, as torch's stable sort).

#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/cpu/reduce_kernels.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

struct Sorted {
  Tensor values, indices;
  int64_t dim = 0;  // wrapped; 0 for a 0-dim input
};

/// `a` sorted along `dim` (a 0-dim tensor is a line of one).
Sorted sort_along(const Tensor& a, int64_t dim, bool descending, bool want_values,
                  const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  Sorted s;
  s.dim = detail::wrap_dim(dim, a.dim(), where);
  const Tensor x = a.contiguous();
  const kernels::ReduceShape shape =
      a.dim() == 0 ? kernels::ReduceShape{} : kernels::split_at_dim(a.shape(), s.dim);
  if (want_values) s.values = detail::make_empty(a.shape(), a.dtype(), device);
  s.indices = detail::make_empty(a.shape(), kInt64, device);
  if (a.numel() > 0) {
    detail::run_kernel(device, where, kernels::sort_stub, s.values, s.indices, x, shape,
                       descending);
  }
  return s;
}

int64_t size_at(const Tensor& a, int64_t d) { return a.dim() == 0 ? 1 : a.shape()[d]; }

/// t's element at position pos[...] along d (pos has t's shape with size 1 at d): a select
/// through a one-hot mask, so it runs on any device with the elementwise kernels.
Tensor pick(const Tensor& t, int64_t d, const Tensor& pos) {
  if (t.dim() == 0) return t;
  std::vector<int64_t> shape(static_cast<size_t>(t.dim()), 1);
  shape[static_cast<size_t>(d)] = t.shape()[d];
  const Tensor positions = arange(t.shape()[d], device(t.device()).dtype(kInt64)).view(shape);
  const Tensor hit = eq(positions, pos);
  return where(hit, t, Scalar(0)).sum(d, true).to(t.dtype());
}

/// a's shape with size 1 at d.
std::vector<int64_t> kept_shape(const Tensor& a, int64_t d) {
  std::vector<int64_t> shape = a.sizes();
  shape[static_cast<size_t>(d)] = 1;
  return shape;
}

std::tuple<Tensor, Tensor> squeezed(Tensor values, Tensor indices, int64_t d, bool keepdim) {
  if (!keepdim && values.dim() > 0) {
    values = values.squeeze(d);
    indices = indices.squeeze(d);
  }
  return {values, indices};
}

/// Note [topk of one]: topk(1) is the extremum along d and where it first occurs, which the
/// max/min reduction computes (min_max_stub: no sort, no scratch, no narrowed copies). Its
/// order is the stable sort's for the largest value — the first of equal values, and NaN
/// largest, the first NaN — and for the smallest of numbers that cannot be NaN. The smallest
/// of floating values is not: topk skips NaN unless the line holds nothing else, the reduction
/// propagates it. So largest=False on floating dtypes keeps the sort.
std::tuple<Tensor, Tensor> top_one(const Tensor& a, int64_t d, bool largest) {
  const Device device = detail::common_device({&a}, "topk");
  DimVector shape = a.shape();
  if (a.dim() > 0) shape[d] = 1;
  Tensor values = detail::make_empty(shape, a.dtype(), device);
  Tensor indices = detail::make_empty(shape, kInt64, device);
  if (values.numel() > 0) {
    const kernels::ReduceShape around =
        a.dim() == 0 ? kernels::ReduceShape{} : kernels::split_at_dim(a.shape(), d);
    detail::run_kernel(device, "topk", kernels::min_max_stub, values, indices, a.contiguous(),
                       around, largest);
  }
  return {values, indices};
}

}  // namespace

namespace detail {

std::tuple<Tensor, Tensor> plain_sort(const Tensor& a, int64_t dim, bool descending) {
  Sorted s = sort_along(a, dim, descending, true, "sort");
  return {s.values, s.indices};
}

Tensor plain_argsort(const Tensor& a, int64_t dim, bool descending) {
  return sort_along(a, dim, descending, false, "argsort").indices;
}

std::tuple<Tensor, Tensor> plain_topk(const Tensor& a, int64_t k, int64_t dim, bool largest,
                                      bool sorted) {
  (void)sorted;  // the k values always come sorted, one of the orders torch allows
  detail::check_defined(a, "topk", "input");
  const int64_t d = detail::wrap_dim(dim, a.dim(), "topk");
  TIDE_CHECK(k >= 0 && k <= size_at(a, d), "[topk] selected index k out of range: k = ", k,
             " for a dim of size ", size_at(a, d), "; pick k in [0, ", size_at(a, d), "]");
  if (k == 1 && (largest || !a.is_floating_point())) return top_one(a, d, largest);
  Sorted s = sort_along(a, dim, largest, true, "topk");
  if (a.dim() == 0) return {s.values, s.indices};
  return {s.values.narrow(d, 0, k).contiguous(), s.indices.narrow(d, 0, k).contiguous()};
}

std::tuple<Tensor, Tensor> plain_kthvalue(const Tensor& a, int64_t k, int64_t dim, bool keepdim) {
  detail::check_defined(a, "kthvalue", "input");
  const int64_t d = detail::wrap_dim(dim, a.dim(), "kthvalue");
  TIDE_CHECK(k >= 1 && k <= size_at(a, d), "[kthvalue] kthvalue(): selected number k out of range "
             "for dimension ", d, "; pick k in [1, ", size_at(a, d), "]");
  Sorted s = sort_along(a, dim, false, true, "kthvalue");
  if (a.dim() == 0) return {s.values, s.indices};
  return squeezed(s.values.narrow(d, k - 1, 1).contiguous(),
                  s.indices.narrow(d, k - 1, 1).contiguous(), d, keepdim);
}

/// Note [Median]: the lower median (position (n - 1) / 2 of the sorted line), or the line's
/// first NaN when it has one (torch propagates NaN); NaNs sort last in input order, so the
/// first NaN sits right after the numbers.
std::tuple<Tensor, Tensor> plain_median(const Tensor& a, int64_t dim, bool keepdim) {
  detail::check_defined(a, "median", "input");
  const int64_t d = detail::wrap_dim(dim, a.dim(), "median");
  TIDE_CHECK(size_at(a, d) > 0, "[median] median(): Expected reduction dim ", d,
             " to have non-zero size; reduce over a dim that has elements");
  Sorted s = sort_along(a, dim, false, true, "median");
  if (a.dim() == 0) return {s.values, s.indices};
  const int64_t n = a.shape()[d];
  Tensor pos = full(kept_shape(a, d), (n - 1) / 2, device(a.device()).dtype(kInt64));
  if (a.is_floating_point()) {
    const Tensor numbers = logical_not(s.values.isnan()).sum(d, true);
    pos = where(lt(numbers, Scalar(n)), numbers, pos);
  }
  return squeezed(pick(s.values, d, pos), pick(s.indices, d, pos), d, keepdim);
}

Tensor plain_median(const Tensor& a) {
  detail::check_defined(a, "median", "input");
  if (a.numel() == 0) {
    return full({}, std::numeric_limits<double>::quiet_NaN(), device(a.device()).dtype(a.dtype()));
  }
  return std::get<0>(plain_median(a.reshape({-1}), 0, false));
}

/// The most frequent value of each line (the smallest among equally frequent ones) and the last
/// position where it occurs, as torch. Counted on the host from the sorted lines: mode's output
/// follows from runs of equal values, which the elementwise kernels cannot find.
std::tuple<Tensor, Tensor> plain_mode(const Tensor& a, int64_t dim, bool keepdim) {
  detail::check_defined(a, "mode", "input");
  const int64_t d = detail::wrap_dim(dim, a.dim(), "mode");
  TIDE_CHECK(size_at(a, d) > 0, "[mode] mode(): Expected reduction dim ", d,
             " to have non-zero size; reduce over a dim that has elements");
  Sorted s = sort_along(a, dim, false, true, "mode");
  if (a.dim() == 0) return {s.values, s.indices};
  // The lines on the host with d last: values compared through float64 (exact for every dtype
  // whose values the mode can tell apart: integers up to 2^53 and the floats).
  const int64_t n = a.shape()[d];
  std::vector<int64_t> perm, rest;
  for (int64_t i = 0; i < a.dim(); ++i) {
    if (i != d) {
      perm.push_back(i);
      rest.push_back(a.shape()[i]);
    }
  }
  perm.push_back(d);
  const Tensor sv = s.values.permute(perm).to(kFloat64).cpu().contiguous();
  const Tensor si = s.indices.permute(perm).cpu().contiguous();
  const int64_t lines = n == 0 ? 0 : sv.numel() / n;
  Tensor vals = empty({lines}, dtype(kFloat64));
  Tensor idxs = empty({lines}, dtype(kInt64));
  const double* v = sv.data_ptr<double>();
  const int64_t* ix = si.data_ptr<int64_t>();
  for (int64_t l = 0; l < lines; ++l) {
    const double* lv = v + l * n;
    const int64_t* li = ix + l * n;
    int64_t best_len = 0, best_at = 0, r = 0;
    while (r < n) {
      int64_t e = r + 1;
      while (e < n && (lv[e] == lv[r] || (lv[e] != lv[e] && lv[r] != lv[r]))) ++e;
      if (e - r > best_len) {
        best_len = e - r;
        best_at = r;
      }
      r = e;
    }
    vals.data_ptr<double>()[l] = lv[best_at];
    int64_t last = li[best_at];
    for (int64_t j = best_at; j < best_at + best_len; ++j) last = std::max(last, li[j]);
    idxs.data_ptr<int64_t>()[l] = last;
  }
  Tensor values = vals.reshape(rest).to(a.device(), a.dtype());
  Tensor indices = idxs.reshape(rest).to(a.device());
  if (keepdim) return {values.unsqueeze(d), indices.unsqueeze(d)};
  return {values, indices};
}

}  // namespace detail

namespace {

std::tuple<Tensor, Tensor> cum_extremum(const Tensor& a, int64_t dim, bool is_max,
                                        const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  const int64_t d = detail::wrap_dim(dim, a.dim(), where);
  const Tensor x = a.contiguous();
  Tensor values = detail::make_empty(a.shape(), a.dtype(), device);
  Tensor indices = detail::make_empty(a.shape(), kInt64, device);
  if (a.numel() > 0) {
    const kernels::ReduceShape shape =
        a.dim() == 0 ? kernels::ReduceShape{} : kernels::split_at_dim(a.shape(), d);
    detail::run_kernel(device, where, kernels::cum_extremum_stub, values, indices, x, shape,
                       is_max);
  }
  return {values, indices};
}

}  // namespace

namespace detail {

std::tuple<Tensor, Tensor> plain_cummax(const Tensor& a, int64_t dim) {
  return cum_extremum(a, dim, true, "cummax");
}

std::tuple<Tensor, Tensor> plain_cummin(const Tensor& a, int64_t dim) {
  return cum_extremum(a, dim, false, "cummin");
}

}  // namespace detail
}  // namespace tide
