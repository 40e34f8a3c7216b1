// Derivatives of the reductions: sum and mean spread the gradient back over the reduced dims;
// max and min send it to the elements chosen (split evenly among ties for whole-tensor max/min,
// as torch; to the returned index for max/min along a dim).

#include <algorithm>

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

}  // namespace tide::autograd::traced
