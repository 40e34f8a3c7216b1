// Derivatives of sort and the selections made from it (topk, kthvalue, median, mode) and of
// cummax/cummin: the gradient of each chosen value goes back to the position its index names
// (torch's value_selecting_reduction_backward and cummaxmin_backward); whole-tensor median
// splits it evenly among the elements equal to the result, as max().

#include <vector>

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"

namespace tide::autograd::traced {
namespace {

/// g placed at `index` along d of a zero tensor of `shape` (index and g have shape's shape
/// except along d; an index of -1 places nothing).
Tensor place(const Tensor& g, const Tensor& index, const std::vector<int64_t>& shape, int64_t d) {
  if (g.requires_grad()) {
    // create_graph: the recorded scatter_add (through put_), differentiable in g (Note
    // [create_graph] in autograd/engine.h); an index lands once per slice, so adding is placing.
    const Tensor keep = ge(index, 0);
    return zeros(shape, tide::device(g.device()).dtype(g.dtype()))
        .scatter_add(d, tide::where(keep, index, Scalar(0)), tide::where(keep, g, Scalar(0)));
  }
  const Tensor out = empty(shape, tide::device(g.device()).dtype(g.dtype()));
  detail::run_kernel(g.device(), "scatter_dim", kernels::scatter_dim_stub, out, g.contiguous(),
                     index.contiguous(), d);
  return out;
}

/// values chosen along `dim` by `indices`: their gradient goes to the chosen positions.
/// `reduced`: the dim is gone from the result unless keepdim (kthvalue, median, mode).
std::tuple<Tensor, Tensor> selected(const char* name, const Tensor& a, Tensor values,
                                    Tensor indices, int64_t dim, bool keepdim, bool reduced) {
  const int64_t d = detail::wrap_dim(dim, a.dim(), name);
  auto node = make_node(name, {&a},
                        [d, keepdim, reduced, shape = a.sizes()](const Tensor& g, const Saved& s) {
                          if (shape.empty()) return grads(g);
                          const bool unsqueeze = reduced && !keepdim;
                          return grads(place(unsqueeze ? g.unsqueeze(d) : g,
                                             unsqueeze ? s[0].unsqueeze(d) : s[0], shape, d));
                        });
  if (node) node->save(indices);
  set_history(values, node);
  return {values, indices};
}

/// cummax/cummin: the gradient of out_j goes to position index_j, summed where several j
/// share one (a run of equal indices). With G the cumsum of g along d, a run's sum is G at its
/// end minus G before its start, each placed at the run's index (no atomics, any device).
Tensor cum_extremum_grad(const Tensor& g, const Tensor& index, int64_t d,
                         const std::vector<int64_t>& shape) {
  const int64_t n = shape[static_cast<size_t>(d)];
  const Tensor G = g.cumsum(d);
  const Tensor last =
      full(index.narrow(d, 0, 1).sizes(), true, tide::dtype(kBool).device(g.device()));
  const Tensor differs = ne(index.narrow(d, 0, n - 1), index.narrow(d, 1, n - 1));
  const Tensor is_end = cat({differs, last}, d);
  const Tensor is_start = cat({last, differs}, d);
  const Tensor at_end = place(G, tide::where(is_end, index, Scalar(-1)), shape, d);
  const Tensor before_start = place(G - g, tide::where(is_start, index, Scalar(-1)), shape, d);
  return at_end - before_start;
}

std::tuple<Tensor, Tensor> cum_extremum(const Tensor& a, int64_t dim, bool is_max) {
  auto [values, indices] =
      untraced([&] { return is_max ? tide::cummax(a, dim) : tide::cummin(a, dim); });
  const int64_t d = detail::wrap_dim(dim, a.dim(), is_max ? "cummax" : "cummin");
  auto node = make_node(is_max ? "CummaxBackward0" : "CumminBackward0", {&a},
                        [d, shape = a.sizes()](const Tensor& g, const Saved& s) {
                          if (shape.empty() || g.numel() == 0) return grads(g);
                          return grads(cum_extremum_grad(g, s[0], d, shape));
                        });
  if (node) node->save(indices);
  set_history(values, node);
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& a, int64_t dim, bool descending) {
  auto [v, i] = untraced([&] { return tide::sort(a, dim, descending); });
  return selected("SortBackward0", a, v, i, dim, true, false);
}

std::tuple<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest,
                                bool sorted) {
  auto [v, i] = untraced([&] { return tide::topk(a, k, dim, largest, sorted); });
  return selected("TopkBackward0", a, v, i, dim, true, false);
}

std::tuple<Tensor, Tensor> kthvalue(const Tensor& a, int64_t k, int64_t dim, bool keepdim) {
  auto [v, i] = untraced([&] { return tide::kthvalue(a, k, dim, keepdim); });
  return selected("KthvalueBackward0", a, v, i, dim, keepdim, true);
}

std::tuple<Tensor, Tensor> median(const Tensor& a, int64_t dim, bool keepdim) {
  auto [v, i] = untraced([&] { return tide::median(a, dim, keepdim); });
  return selected("MedianBackward1", a, v, i, dim, keepdim, true);
}

std::tuple<Tensor, Tensor> mode(const Tensor& a, int64_t dim, bool keepdim) {
  auto [v, i] = untraced([&] { return tide::mode(a, dim, keepdim); });
  return selected("ModeBackward0", a, v, i, dim, keepdim, true);
}

Tensor median(const Tensor& a) {
  Tensor r = untraced([&] { return tide::median(a); });
  auto node = make_node("MedianBackward0", {&a}, [](const Tensor& g, const Saved& s) {
    // torch's evenly_distribute_backward, as max().
    const Tensor chosen = eq(s[0], s[1]);
    return grads(tide::where(chosen, g / chosen.sum(), 0));
  });
  if (node) node->save(a);
  set_history(r, node);
  if (node) node->save_output(r);
  return r;
}

std::tuple<Tensor, Tensor> cummax(const Tensor& a, int64_t dim) {
  return cum_extremum(a, dim, true);
}
std::tuple<Tensor, Tensor> cummin(const Tensor& a, int64_t dim) {
  return cum_extremum(a, dim, false);
}

}  // namespace tide::autograd::traced
