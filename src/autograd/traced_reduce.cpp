// Derivatives of the reductions: sum and mean spread the gradient back over the reduced dims;
// max and min send it to the elements chosen (split evenly among ties for whole-tensor max/min,
// as torch; to the returned index for max/min along a dim); amax/amin split it evenly among
// ties along the reduced dims; prod, the vector norms, cumsum and cumprod as torch's
// derivatives.yaml (zeros included).

#include <algorithm>
#include <cmath>

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"

namespace tide::autograd::traced {
namespace {

/// The reduced dims, wrapped and ascending; empty `dims` means all (torch's sum(dim=[])).
std::vector<int64_t> reduced_dims(const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<int64_t> out;
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) out.push_back(detail::wrap_dim(d, ndim, "sum"));
  std::sort(out.begin(), out.end());
  return out;
}

/// g (the reduction's gradient) broadcast back to the input's shape.
Tensor spread(const Tensor& g, const std::vector<int64_t>& shape, const std::vector<int64_t>& dims,
              bool keepdim) {
  Tensor out = g;
  if (!keepdim) {
    for (int64_t d : dims) out = out.unsqueeze(d);
  }
  return out.expand(shape);
}

int64_t count_of(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= shape[static_cast<size_t>(d)];
  return n;
}

Tensor finish(Tensor out, const std::shared_ptr<FunctionNode>& node) {
  set_history(out, node);
  return out;
}

}  // namespace

Tensor sum(const Tensor& a, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::sum(a, dtype); });
  return finish(r,
                make_node("SumBackward0", {&a}, [shape = a.sizes()](const Tensor& g, const Saved&) {
                  return grads(g.expand(shape));
                }));
}

Tensor sum(const Tensor& a, std::vector<int64_t> dims, bool keepdim, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::sum(a, dims, keepdim, dtype); });
  const int64_t ndim = a.dim();
  return finish(r, make_node("SumBackward1", {&a},
                             [shape = a.sizes(), d = reduced_dims(dims, ndim), keepdim](
                                 const Tensor& g, const Saved&) {
                               return grads(spread(g, shape, d, keepdim));
                             }));
}

Tensor mean(const Tensor& a, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::mean(a, dtype); });
  return finish(r, make_node("MeanBackward0", {&a},
                             [shape = a.sizes(), n = a.numel()](const Tensor& g, const Saved&) {
                               return grads((g / n).expand(shape));
                             }));
}

Tensor mean(const Tensor& a, std::vector<int64_t> dims, bool keepdim, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::mean(a, dims, keepdim, dtype); });
  const std::vector<int64_t> d = reduced_dims(dims, a.dim());
  const int64_t n = count_of(a.sizes(), d);
  return finish(r, make_node("MeanBackward1", {&a},
                             [shape = a.sizes(), d, keepdim, n](const Tensor& g, const Saved&) {
                               return grads(spread(g / n, shape, d, keepdim));
                             }));
}

namespace {

Tensor extremum_all(const Tensor& a, bool is_max) {
  Tensor r = untraced([&] { return is_max ? tide::max(a) : tide::min(a); });
  auto node = make_node(is_max ? "MaxBackward1" : "MinBackward1", {&a},
                        [](const Tensor& g, const Saved& s) {
                          // torch's evenly_distribute_backward: every element equal to the result
                          // gets g / count.
                          const Tensor chosen = eq(s[0], s[1]);
                          return grads(tide::where(chosen, g / chosen.sum(), 0));
                        });
  if (node) node->save(a);
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

std::tuple<Tensor, Tensor> extremum_dim(const Tensor& a, int64_t dim, bool keepdim, bool is_max) {
  auto [values, indices] =
      untraced([&] { return is_max ? tide::max(a, dim, keepdim) : tide::min(a, dim, keepdim); });
  const int64_t d = detail::wrap_dim(dim, a.dim(), is_max ? "max" : "min");
  auto node = make_node(
      is_max ? "MaxBackward0" : "MinBackward0", {&a},
      [d, keepdim, shape = a.sizes()](const Tensor& g, const Saved& s) {
        if (shape.empty()) return grads(g);  // 0-dim input: the value itself
        // g goes to the chosen index along d, 0 elsewhere (one kernel).
        const Tensor idx = (keepdim ? s[0] : s[0].unsqueeze(d)).contiguous();
        const Tensor src = (keepdim ? g : g.unsqueeze(d)).contiguous();
        if (g.requires_grad()) {
          // create_graph: the recorded scatter (through put_), differentiable in g (Note
          // [create_graph] in autograd/engine.h); the kernel below records nothing.
          const Tensor z = zeros(shape, tide::device(g.device()).dtype(g.dtype()));
          return grads(z.scatter(d, idx, src));
        }
        const Tensor out = empty(shape, tide::device(g.device()).dtype(g.dtype()));
        detail::run_kernel(g.device(), "scatter_dim", kernels::scatter_dim_stub, out, src, idx, d);
        return grads(out);
      });
  if (node) node->save(indices);
  values = finish(values, node);
  return {values, indices};
}

}  // namespace

Tensor max(const Tensor& a) { return extremum_all(a, true); }
Tensor min(const Tensor& a) { return extremum_all(a, false); }
std::tuple<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim) {
  return extremum_dim(a, dim, keepdim, true);
}
std::tuple<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim) {
  return extremum_dim(a, dim, keepdim, false);
}

namespace {

/// d prod / d x for the elements of `x` along the reduced dims `d` (kept, size 1, in `result`
/// and `g`): result / x where x is nonzero; the product of the others at the only zero of a
/// slice; 0 where a slice has two zeros or more.
Tensor prod_grad(const Tensor& g, const Tensor& x, const Tensor& result,
                 const std::vector<int64_t>& d) {
  const Tensor zero = eq(x, Scalar(0));
  const Tensor zeros_in_slice = zero.sum(d, true);
  const Tensor w = tide::where(zero, Scalar(1), x);
  const Tensor others = d.size() == 1 ? w.prod(d[0], true) : w.prod().reshape(result.sizes());
  const Tensor at_zero = tide::where(eq(zeros_in_slice, Scalar(1)), g * others, Scalar(0));
  return tide::where(zero, at_zero, g * result / x);
}

}  // namespace

Tensor prod(const Tensor& a, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::prod(a, dtype); });
  auto node =
      make_node("ProdBackward0", {&a}, [dtype = a.dtype()](const Tensor& g, const Saved& s) {
        const Tensor& x = s[0];
        std::vector<int64_t> all(static_cast<size_t>(x.dim()));
        for (int64_t i = 0; i < x.dim(); ++i) all[static_cast<size_t>(i)] = i;
        std::vector<int64_t> ones(static_cast<size_t>(x.dim()), 1);
        return grads(prod_grad(g.reshape(ones), x, s[1].reshape(ones), all).to(dtype));
      });
  if (node) node->save(a);
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

Tensor prod(const Tensor& a, int64_t dim, bool keepdim, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::prod(a, dim, keepdim, dtype); });
  const int64_t d = a.dim() == 0 ? 0 : detail::wrap_dim(dim, a.dim(), "prod");
  auto node = make_node("ProdBackward1", {&a},
                        [d, keepdim, dtype = a.dtype()](const Tensor& g, const Saved& s) {
                          const Tensor& x = s[0];
                          if (x.dim() == 0) return grads(g.to(dtype));
                          const Tensor gk = keepdim ? g : g.unsqueeze(d);
                          const Tensor rk = keepdim ? s[1] : s[1].unsqueeze(d);
                          return grads(prod_grad(gk, x, rk, {d}).to(dtype));
                        });
  if (node) node->save(a);
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

namespace {

/// amax/amin: g split evenly among the elements equal to the result (torch's
/// scale_grad_by_count(restore_reduced_dims(...))).
Tensor extremum_values(const Tensor& a, std::vector<int64_t> dims, bool keepdim, bool is_max) {
  Tensor r = untraced(
      [&] { return is_max ? tide::amax(a, dims, keepdim) : tide::amin(a, dims, keepdim); });
  const std::vector<int64_t> d = reduced_dims(dims, a.dim());
  auto node = make_node(is_max ? "AmaxBackward0" : "AminBackward0", {&a},
                        [d, keepdim, shape = a.sizes()](const Tensor& g, const Saved& s) {
                          const Tensor chosen =
                              eq(s[0], spread(s[1], shape, d, keepdim)).to(g.dtype());
                          const Tensor count = chosen.sum(d, true);
                          return grads(spread(g, shape, d, keepdim) * chosen / count);
                        });
  if (node) node->save(a);
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

/// The sum of y[j] for j >= i along d (cumsum's backward): total - cumsum + y.
Tensor reverse_cumsum(const Tensor& y, int64_t d) {
  return y.sum(d, true) - y.cumsum(d) + y;
}

}  // namespace

Tensor amax(const Tensor& a, std::vector<int64_t> dims, bool keepdim) {
  return extremum_values(a, std::move(dims), keepdim, true);
}

Tensor amin(const Tensor& a, std::vector<int64_t> dims, bool keepdim) {
  return extremum_values(a, std::move(dims), keepdim, false);
}

Tensor linalg_vector_norm(const Tensor& a, Scalar ord, std::vector<int64_t> dims, bool keepdim,
                          std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::linalg_vector_norm(a, ord, dims, keepdim, dtype); });
  const std::vector<int64_t> d = reduced_dims(dims, a.dim());
  auto node = make_node(
      "LinalgVectorNormBackward0", {&a},
      [d, keepdim, p = ord.to_double(), shape = a.sizes(), in_dtype = a.dtype()](
          const Tensor& g, const Saved& s) {
        const Tensor x = s[0].to(g.dtype());
        const Tensor gs = spread(g, shape, d, keepdim);
        const Tensor norm = spread(s[1], shape, d, keepdim);
        Tensor grad;
        if (p == 0) {
          grad = zeros_like(x);
        } else if (p == 1) {
          grad = gs * x.sgn();
        } else if (std::isinf(p)) {
          // As amax of |x|: split evenly among the elements of the largest (smallest) magnitude.
          const Tensor chosen = eq(x.abs(), norm).to(g.dtype());
          grad = gs * x.sgn() * chosen / chosen.sum(d, true);
        } else if (p == 2) {
          grad = tide::where(eq(norm, Scalar(0)), Scalar(0), gs * x / norm);
        } else {
          // torch: g * x * |x|^(p-2) / norm^(p-1), 0 where the norm is 0.
          const Tensor scale = x * x.abs().pow(p - 2) / norm.pow(p - 1);
          grad = tide::where(eq(norm, Scalar(0)), Scalar(0), gs * scale);
        }
        return grads(grad.to(in_dtype));
      });
  if (node) node->save(a);
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

Tensor cumsum(const Tensor& a, int64_t dim, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::cumsum(a, dim, dtype); });
  const int64_t d = a.dim() == 0 ? 0 : detail::wrap_dim(dim, a.dim(), "cumsum");
  return finish(r, make_node("CumsumBackward0", {&a},
                             [d, in_dtype = a.dtype()](const Tensor& g, const Saved&) {
                               if (g.dim() == 0) return grads(g.to(in_dtype));
                               return grads(reverse_cumsum(g, d).to(in_dtype));
                             }));
}

Tensor cumprod(const Tensor& a, int64_t dim, std::optional<Dtype> dtype) {
  Tensor r = untraced([&] { return tide::cumprod(a, dim, dtype); });
  const int64_t d = a.dim() == 0 ? 0 : detail::wrap_dim(dim, a.dim(), "cumprod");
  auto node = make_node(
      "CumprodBackward0", {&a}, [d, in_dtype = a.dtype()](const Tensor& g, const Saved& s) {
        if (g.dim() == 0) return grads(g.to(in_dtype));
        // Note [cumprod backward]: d out_j / d x_i = prod_{k <= j, k != i} x_k for j >= i.
        // Before a slice's first zero that is out_j / x_i; at the first zero it is the cumprod
        // of x with that zero replaced by 1; after it, 0 (the product holds the zero).
        const Tensor x = s[0].to(g.dtype());
        const Tensor out = s[1].to(g.dtype());
        const Tensor zero = eq(x, Scalar(0));
        const Tensor zeros_so_far = zero.to(kInt64).cumsum(d);
        const Tensor before = eq(zeros_so_far, Scalar(0));
        const Tensor first_zero = logical_and(zero, eq(zeros_so_far, Scalar(1)));
        const Tensor g_before = reverse_cumsum(g * out, d) / x;
        const Tensor skipped = tide::where(first_zero, Scalar(1), x).cumprod(d);
        const Tensor g_first = reverse_cumsum(g * skipped, d);
        const Tensor grad =
            tide::where(before, g_before, tide::where(first_zero, g_first, Scalar(0)));
        return grads(grad.to(in_dtype));
      });
  if (node) node->save(a);
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

}  // namespace tide::autograd::traced
