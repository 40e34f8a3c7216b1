// Reductions: sum, mean, prod, max, min, amax, amin, argmax, argmin, all, any (whole tensor
// and over dims) and the scans cumsum and cumprod, as torch.
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

/// Note [Reducing the dims around the kept ones]: (N, C, H, W) reduced over (0, 2, 3), batch
/// norm's statistics and its per-channel gradients, has reduced dims on both sides of the kept
/// one, so plan_reduction would copy the whole input to bring them together. For a contiguous
/// float32/float64 input, two reductions read it in place instead: the trailing dims first,
/// then the leading ones of the small (N, C) result. A mean of equal-sized means is the mean.
/// Wider dtypes only: a float16 partial sum would round where the one-pass sum does not.
///
/// leading_of_split: the mask of the leading reduced dims when `mask` is (reduced..., kept..., reduced...) with
/// more than one element on each side, else 0.
DimMask leading_of_split(const Tensor& x, DimMask mask) {
  if (!x.is_contiguous() || (x.dtype() != kFloat32 && x.dtype() != kFloat64)) return 0;
  const int64_t n = x.dim();
  int64_t a = 0, b = 0, lead = 1, kept = 1, trail = 1;
  while (a < n && reduces(mask, a)) lead *= x.shape()[a++];
  b = a;
  while (b < n && !reduces(mask, b)) kept *= x.shape()[b++];
  for (int64_t d = b; d < n; ++d) {
    if (!reduces(mask, d)) return 0;
    trail *= x.shape()[d];
  }
  // One element kept (N, 1, H, W): plan_reduction skips size-1 dims and reads it in one pass.
  if (a == 0 || b == n || lead < 2 || trail < 2 || kept < 2) return 0;
  return (DimMask{1} << a) - 1;
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
  if (const DimMask leading = leading_of_split(x, mask); leading != 0 && x.dtype() == out_dtype) {
    const Tensor partial = sum_impl(x, mask & ~leading, false, std::nullopt, mean, where);
    const Tensor out = sum_impl(partial, leading, false, std::nullopt, mean, where);
    if (!keepdim) return out;
    const DimVector kept = reduced_shape(a, mask, true);
    return out.view(std::vector<int64_t>(kept.begin(), kept.end()));
  }
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

/// The dtype a sum, prod or scan gives: `dtype`, else int64 for bool and integer inputs.
Dtype fold_dtype(const Tensor& a, std::optional<Dtype> dtype) {
  return dtype.value_or(is_integral(a.dtype(), true) ? kInt64 : a.dtype());
}

/// torch 1.13's cpu kernels of prod (float16, bfloat16) and of the scans (float16) do not
/// exist, and it says so; its CUDA kernels do, so cuda devices run them (simulated ones too).
void check_cpu_dtype(const Tensor& x, Device device, bool bfloat16_too, const char* kernel) {
  if (device.is_cpu()) {
    TIDE_CHECK(x.dtype() != kFloat16 && (!bfloat16_too || x.dtype() != kBFloat16), "[", kernel,
               "] \"", kernel, "_cpu\" not implemented for '", detail::torch_type_name(x.dtype()),
               "'; compute in float32 (.to(tide::kFloat32)) or on a cuda device");
  }
}

Tensor prod_impl(const Tensor& a, DimMask mask, bool keepdim, std::optional<Dtype> dtype) {
  detail::check_defined(a, "prod", "input");
  const Device device = detail::common_device({&a}, "prod");
  // An explicit dtype converts the input first, as torch.
  const Tensor x = dtype && *dtype != a.dtype() ? a.to(*dtype) : a;
  check_cpu_dtype(x, device, true, "prod");
  ReducePlan plan = plan_reduction(x, mask);
  Tensor out = detail::make_empty(reduced_shape(a, mask, keepdim), fold_dtype(a, dtype), device);
  detail::run_kernel(device, "prod", kernels::prod_stub, out, plan.input, plan.shape);
  return out;
}

/// amax/amin over `dims` (all when empty): the values of max/min, no indices.
Tensor extremum_values(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim,
                       bool is_max, const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  const DimMask mask = dims_mask(a, dims, where);
  for (int64_t d = 0; d < a.dim(); ++d) {
    TIDE_CHECK(!reduces(mask, d) || a.shape()[d] > 0, "[", where, "] ", where,
               "(): Expected reduction dim ", d, " to have non-zero size; reduce over dims "
               "that have elements");
  }
  Tensor out = detail::make_empty(reduced_shape(a, mask, keepdim), a.dtype(), device);
  if (out.numel() == 0) return out;
  ReducePlan plan = plan_reduction(a, mask);
  detail::run_kernel(device, where, kernels::min_max_stub, out, Tensor(), plan.input, plan.shape,
                     is_max);
  return out;
}

/// all/any: every (some) element nonzero, over `mask`. torch keeps uint8 for a uint8 input and
/// gives bool otherwise; all of nothing is true, any of nothing false.
Tensor all_any(const Tensor& a, DimMask mask, bool keepdim, bool is_all, const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  const Dtype out_dtype = a.dtype() == kUInt8 ? kUInt8 : kBool;
  Tensor out = detail::make_empty(reduced_shape(a, mask, keepdim), kBool, device);
  if (out.numel() > 0) {
    int64_t reduced = 1;
    for (int64_t d = 0; d < a.dim(); ++d) {
      if (reduces(mask, d)) reduced *= a.shape()[d];
    }
    if (reduced == 0) {
      out.fill_(is_all);
    } else {
      // The min (all) or max (any) of the elements as bools.
      const Tensor b = a.dtype() == kBool ? a : ne(a, Scalar(0));
      ReducePlan plan = plan_reduction(b, mask);
      detail::run_kernel(device, where, kernels::min_max_stub, out, Tensor(), plan.input,
                         plan.shape, !is_all);
    }
  }
  return out_dtype == kBool ? out : out.to(out_dtype);
}

/// cumsum/cumprod along `dim`.
Tensor scan(const Tensor& a, int64_t dim, std::optional<Dtype> dtype, bool prod,
            const char* where) {
  detail::check_defined(a, where, "input");
  const Device device = detail::common_device({&a}, where);
  const int64_t d = detail::wrap_dim(dim, a.dim(), where);
  const Tensor x = (dtype && *dtype != a.dtype() ? a.to(*dtype) : a).contiguous();
  check_cpu_dtype(x, device, false, prod ? "cumprod_out" : "cumsum_out");
  Tensor out = detail::make_empty(a.shape(), fold_dtype(a, dtype), device);
  const kernels::ReduceShape s =
      a.dim() == 0 ? kernels::ReduceShape{} : kernels::split_at_dim(a.shape(), d);
  detail::run_kernel(device, where, kernels::scan_stub, out, x, s, prod);
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

Tensor plain_prod(const Tensor& a, std::optional<Dtype> dtype) {
  detail::check_defined(a, "prod", "input");
  return prod_impl(a, dims_mask(a, {}, "prod"), false, dtype);
}

Tensor plain_prod(const Tensor& a, int64_t dim, bool keepdim, std::optional<Dtype> dtype) {
  detail::check_defined(a, "prod", "input");
  return prod_impl(a, dims_mask(a, {dim}, "prod"), keepdim, dtype);
}

Tensor plain_amax(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  return extremum_values(a, dims, keepdim, true, "amax");
}

Tensor plain_amin(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  return extremum_values(a, dims, keepdim, false, "amin");
}

Tensor plain_all(const Tensor& a) {
  detail::check_defined(a, "all", "input");
  return all_any(a, dims_mask(a, {}, "all"), false, true, "all");
}

Tensor plain_all(const Tensor& a, int64_t dim, bool keepdim) {
  detail::check_defined(a, "all", "input");
  return all_any(a, dims_mask(a, {dim}, "all"), keepdim, true, "all");
}

Tensor plain_any(const Tensor& a) {
  detail::check_defined(a, "any", "input");
  return all_any(a, dims_mask(a, {}, "any"), false, false, "any");
}

Tensor plain_any(const Tensor& a, int64_t dim, bool keepdim) {
  detail::check_defined(a, "any", "input");
  return all_any(a, dims_mask(a, {dim}, "any"), keepdim, false, "any");
}

Tensor plain_cumsum(const Tensor& a, int64_t dim, std::optional<Dtype> dtype) {
  return scan(a, dim, dtype, false, "cumsum");
}

Tensor plain_cumprod(const Tensor& a, int64_t dim, std::optional<Dtype> dtype) {
  return scan(a, dim, dtype, true, "cumprod");
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
