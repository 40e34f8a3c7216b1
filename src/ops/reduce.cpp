// Reductions: sum, mean, max, min, argmax, argmin (whole tensor and over dims), as torch.
// Each front end resolves dims and dtypes, lays the input out as Note [Reduction shape] asks
// and calls one kernel.

#include <algorithm>
#include <numeric>

#include "kernels/stubs.h"
#include "kernels/cpu/reduce_kernels.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/ops.h"

namespace tide {
namespace {

using DimMask = uint64_t;  // bit d set: dim d is reduced

bool reduces(DimMask mask, int64_t d) { return (mask >> d) & 1; }

/// The reduced dims as a mask. An empty list reduces every dim (torch's sum(dim=[])).
DimMask dims_mask(const Tensor& a, const std::vector<int64_t>& dims, const char* where) {
  const int64_t ndim = a.dim();
  TIDE_CHECK(ndim <= 64, "[", where, "] reductions support at most 64 dims, got ", ndim);
  if (dims.empty()) return ndim == 64 ? ~DimMask{0} : (DimMask{1} << ndim) - 1;
  DimMask mask = 0;
  for (int64_t dim : dims) {
    int64_t d = detail::wrap_dim(dim, ndim, where);
    if (ndim == 0) continue;  // dim 0 / -1 of a 0-dim tensor: nothing to reduce
    TIDE_CHECK(!reduces(mask, d), "[", where, "] dim ", d,
               " appears multiple times in the list of dims; name each dim once");
    mask |= DimMask{1} << d;
  }
  return mask;
}

DimVector reduced_shape(const Tensor& a, DimMask mask, bool keepdim) {
  DimVector out;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (!reduces(mask, d)) {
      out.push_back(a.shape()[d]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

/// The input laid out for the kernels: contiguous, (outer, reduced, inner).
struct ReducePlan {
  Tensor input;
  kernels::ReduceShape shape;
};

/// True when the reduced dims of `t` (ignoring size-1 dims) are adjacent, with the kept dims
/// before them as `outer` and after them as `inner`.
bool block_shape(const Tensor& t, DimMask mask, kernels::ReduceShape& s) {
  int64_t first = -1, last = -1;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.shape()[d] == 1) continue;
    if (reduces(mask, d)) {
      if (first < 0) first = d;
      last = d;
    }
  }
  s = kernels::ReduceShape{};
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t n = t.shape()[d];
    if (n == 1) continue;
    if (reduces(mask, d)) {
      s.reduced *= n;
    } else if (first >= 0 && d > first && d < last) {
      return false;  // a kept dim between reduced ones
    } else if (first < 0 || d < first) {
      s.outer *= n;
    } else {
      s.inner *= n;
    }
  }
  return true;
}

/// Note [Reduction layout]: a contiguous input whose reduced dims are adjacent is used as is.
/// A strided input that is a permutation of contiguous memory (a transpose) is read in memory
/// order when that keeps the kept dims in order, so it needs no copy either. Anything else
/// is permuted to (kept..., reduced...) and copied once.
ReducePlan plan_reduction(const Tensor& a, DimMask mask) {
  kernels::ReduceShape s;
  if (a.is_contiguous() && block_shape(a, mask, s)) return {a, s};
  if (!a.is_contiguous()) {
    std::vector<int64_t> order(static_cast<size_t>(a.dim()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      return a.stride_vector()[x] > a.stride_vector()[y];
    });
    Tensor mem = a.permute(order);
    DimMask mem_mask = 0;
    int64_t last_kept = -1;
    bool kept_in_order = true;
    for (int64_t i = 0; i < a.dim(); ++i) {
      const int64_t d = order[static_cast<size_t>(i)];
      if (reduces(mask, d)) {
        mem_mask |= DimMask{1} << i;
      } else if (a.shape()[d] != 1) {
        kept_in_order = kept_in_order && d > last_kept;
        last_kept = d;
      }
    }
    if (kept_in_order && mem.is_contiguous() && block_shape(mem, mem_mask, s)) return {mem, s};
  }
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (!reduces(mask, d)) perm.push_back(d);
  }
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (reduces(mask, d)) perm.push_back(d);
  }
  Tensor x = a.permute(perm).contiguous();
  s = kernels::ReduceShape{};
  for (int64_t d = 0; d < a.dim(); ++d) (reduces(mask, d) ? s.reduced : s.outer) *= a.shape()[d];
  return {x, s};
}

Tensor sum_impl(const Tensor& a, DimMask mask, bool keepdim, std::optional<Dtype> dtype,
                bool mean, const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  Dtype out_dtype;
  if (mean) {
    if (dtype) {
      TIDE_CHECK(is_floating_point(*dtype), "[", where, "] ", where,
                 "(): could not infer output dtype. Optional dtype must be either a floating "
                 "point or complex dtype. Got: ", detail::torch_type_name(*dtype),
                 "; pass a floating dtype such as tide::kFloat32");
    } else {
      TIDE_CHECK(a.is_floating_point(), "[", where, "] ", where,
                 "(): could not infer output dtype. Input dtype must be either a floating point "
                 "or complex dtype. Got: ", detail::torch_type_name(a.dtype()),
                 "; pass dtype=tide::kFloat32 or convert the input with .to(tide::kFloat32)");
    }
    out_dtype = dtype.value_or(a.dtype());
  } else {
    out_dtype = dtype.value_or(is_integral(a.dtype(), true) ? kInt64 : a.dtype());
  }
  // An explicit dtype converts the input first, as torch (sum(x, dtype=d) == sum(x.to(d))).
  const Tensor x = dtype && *dtype != a.dtype() ? a.to(*dtype) : a;
  ReducePlan plan = plan_reduction(x, mask);
  Tensor out = detail::make_empty(reduced_shape(a, mask, keepdim), out_dtype, device);
  detail::run_kernel(device, mean ? "mean" : "sum", kernels::sum_stub, out, plan.input,
                     plan.shape, mean);
  return out;
}

/// max/min/argmax/argmin over one dim; values or indices may be skipped.
void min_max_dim(const Tensor& a, int64_t dim, bool keepdim, bool is_max, bool want_values,
                 Tensor& values, Tensor& indices, const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  const int64_t d = detail::wrap_dim(dim, a.dim(), where);
  const DimMask mask = a.dim() == 0 ? 0 : DimMask{1} << d;
  if (a.dim() > 0) {
    TIDE_CHECK(a.shape()[d] > 0, "[", where, "] ", where, "(): Expected reduction dim ", d,
               " to have non-zero size.");
  }
  DimVector shape = reduced_shape(a, mask, keepdim);
  ReducePlan plan = plan_reduction(a, mask);
  if (want_values) values = detail::make_empty(shape, a.dtype(), device);
  indices = detail::make_empty(shape, kInt64, device);
  detail::run_kernel(device, where, kernels::min_max_stub, values, indices, plan.input,
                     plan.shape, is_max);
}

/// max()/min()/argmax()/argmin() of the whole tensor.
Tensor min_max_all(const Tensor& a, bool is_max, bool want_index, const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  TIDE_CHECK(a.numel() > 0, "[", where, "] ", where,
             "(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
             "reduction dim with the 'dim' argument.");
  Tensor x = a.contiguous();
  Tensor out = detail::make_empty({}, want_index ? kInt64 : a.dtype(), device);
  kernels::ReduceShape s{1, a.numel(), 1};
  detail::run_kernel(device, where, kernels::min_max_stub, want_index ? Tensor() : out,
                     want_index ? out : Tensor(), x, s, is_max);
  return out;
}

void check_arg_dtype(const Tensor& a, const char* where) {
  TIDE_CHECK(a.dtype() != kBool, "[", where, "] \"", where,
             "_cpu\" not implemented for 'Bool'; convert the input with .to(tide::kUInt8) first");
}

}  // namespace

namespace detail {

Tensor plain_sum(const Tensor& a, std::optional<Dtype> dtype) {
  detail::check_defined(a, "sum", "input");
  return sum_impl(a, dims_mask(a, {}, "sum"), false, dtype, false, "sum");
}

Tensor plain_sum(const Tensor& a, int64_t dim, bool keepdim, std::optional<Dtype> dtype) {
  detail::check_defined(a, "sum", "input");
  return sum_impl(a, dims_mask(a, {dim}, "sum"), keepdim, dtype, false, "sum");
}

Tensor plain_sum(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim,
                 std::optional<Dtype> dtype) {
  detail::check_defined(a, "sum", "input");
  return sum_impl(a, dims_mask(a, dims, "sum"), keepdim, dtype, false, "sum");
}

Tensor& plain_sum_out(Tensor& out, const Tensor& a) {
  detail::check_defined(out, "sum_out", "out");
  detail::check_defined(a, "sum_out", "input");
  detail::same_device({{"out", &out}, {"self", &a}}, "sum_out");
  TIDE_CHECK(out.numel() == 1, "[sum_out] out must hold exactly one element for a whole-tensor "
             "sum, but it has shape ", detail::shape_str(out.shape()),
             "; pass a 0-dim tensor such as tide::empty({}, dtype)");
  // torch's sum.out accumulates in out's dtype.
  Tensor r = sum_impl(a, dims_mask(a, {}, "sum_out"), false, out.dtype(), false, "sum_out");
  out.copy_(r.reshape(out.sizes()));
  return out;
}

Tensor plain_mean(const Tensor& a, std::optional<Dtype> dtype) {
  detail::check_defined(a, "mean", "input");
  return sum_impl(a, dims_mask(a, {}, "mean"), false, dtype, true, "mean");
}

Tensor plain_mean(const Tensor& a, int64_t dim, bool keepdim, std::optional<Dtype> dtype) {
  detail::check_defined(a, "mean", "input");
  return sum_impl(a, dims_mask(a, {dim}, "mean"), keepdim, dtype, true, "mean");
}

Tensor plain_mean(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim,
                  std::optional<Dtype> dtype) {
  detail::check_defined(a, "mean", "input");
  return sum_impl(a, dims_mask(a, dims, "mean"), keepdim, dtype, true, "mean");
}

Tensor plain_max(const Tensor& a) {
  return min_max_all(a, true, false, "max");
}
Tensor plain_min(const Tensor& a) {
  return min_max_all(a, false, false, "min");
}

std::tuple<Tensor, Tensor> plain_max(const Tensor& a, int64_t dim, bool keepdim) {
  Tensor values, indices;
  min_max_dim(a, dim, keepdim, true, true, values, indices, "max");
  return {values, indices};
}

std::tuple<Tensor, Tensor> plain_min(const Tensor& a, int64_t dim, bool keepdim) {
  Tensor values, indices;
  min_max_dim(a, dim, keepdim, false, true, values, indices, "min");
  return {values, indices};
}

Tensor plain_argmax(const Tensor& a) {
  detail::check_defined(a, "argmax", "input");
  check_arg_dtype(a, "argmax");
  return min_max_all(a, true, true, "argmax");
}

Tensor plain_argmin(const Tensor& a) {
  detail::check_defined(a, "argmin", "input");
  check_arg_dtype(a, "argmin");
  return min_max_all(a, false, true, "argmin");
}

Tensor plain_argmax(const Tensor& a, int64_t dim, bool keepdim) {
  detail::check_defined(a, "argmax", "input");
  check_arg_dtype(a, "argmax");
  Tensor values, indices;
  min_max_dim(a, dim, keepdim, true, false, values, indices, "argmax");
  return indices;
}

Tensor plain_argmin(const Tensor& a, int64_t dim, bool keepdim) {
  detail::check_defined(a, "argmin", "input");
  check_arg_dtype(a, "argmin");
  Tensor values, indices;
  min_max_dim(a, dim, keepdim, false, false, values, indices, "argmin");
  return indices;
}

}  // namespace detail

}  // namespace tide
