// Derivatives of the view ops. Their outputs share the input's storage (and so its version
// counter) and link to its base (Note [Views and in-place ops] in autograd/view_history.h).

#include <numeric>
#include <utility>

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "autograd/view_history.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"

namespace tide::autograd::traced {
namespace {

Tensor finish_view(Tensor out, const Tensor& in, const std::shared_ptr<FunctionNode>& node) {
  if (out.storage().is_alias_of(in.storage())) {
    set_view_history(out, in, node);
  } else {
    set_history(out, node);  // reshape that had to copy
  }
  return out;
}

/// The gradient of a view that picks part of the input: zeros with g written into that part.
template <class Pick>
Tensor scatter_into_zeros(const Tensor& g, const std::vector<int64_t>& shape, Pick pick) {
  Tensor out = zeros(shape, tide::device(g.device()).dtype(g.dtype()));
  pick(out).copy_(g);
  return out;
}

}  // namespace

Tensor view(const Tensor& a, std::vector<int64_t> sizes) {
  Tensor r = untraced([&] { return a.view(std::move(sizes)); });
  return finish_view(
      r, a, make_node("ViewBackward0", {&a}, [shape = a.sizes()](const Tensor& g, const Saved&) {
        return grads(g.reshape(shape));
      }));
}

Tensor reshape(const Tensor& a, std::vector<int64_t> sizes) {
  Tensor r = untraced([&] { return a.reshape(std::move(sizes)); });
  const bool aliases = r.storage().is_alias_of(a.storage());
  return finish_view(r, a,
                     make_node(aliases ? "ViewBackward0" : "UnsafeViewBackward0", {&a},
                               [shape = a.sizes()](const Tensor& g, const Saved&) {
                                 return grads(g.reshape(shape));
                               }));
}

Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1) {
  Tensor r = untraced([&] { return a.transpose(dim0, dim1); });
  return finish_view(
      r, a, make_node("TransposeBackward0", {&a}, [dim0, dim1](const Tensor& g, const Saved&) {
        return grads(g.transpose(dim0, dim1));
      }));
}

Tensor permute(const Tensor& a, std::vector<int64_t> dims) {
  Tensor r = untraced([&] { return a.permute(dims); });
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    inverse[static_cast<size_t>(detail::wrap_dim(dims[i], a.dim(), "Tensor::permute"))] =
        static_cast<int64_t>(i);
  }
  return finish_view(r, a,
                     make_node("PermuteBackward0", {&a}, [inverse](const Tensor& g, const Saved&) {
                       return grads(g.permute(inverse));
                     }));
}

Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> stop, int64_t step) {
  Tensor r = untraced([&] { return a.slice(dim, start, stop, step); });
  return finish_view(
      r, a,
      make_node("SliceBackward0", {&a},
                [shape = a.sizes(), dim, start, stop, step](const Tensor& g, const Saved&) {
                  return grads(scatter_into_zeros(
                      g, shape, [&](const Tensor& z) { return z.slice(dim, start, stop, step); }));
                }));
}

Tensor select(const Tensor& a, int64_t dim, int64_t index) {
  Tensor r = untraced([&] { return a.select(dim, index); });
  return finish_view(r, a,
                     make_node("SelectBackward0", {&a},
                               [shape = a.sizes(), dim, index](const Tensor& g, const Saved&) {
                                 return grads(scatter_into_zeros(g, shape, [&](const Tensor& z) {
                                   return z.select(dim, index);
                                 }));
                               }));
}

Tensor unsqueeze(const Tensor& a, int64_t dim) {
  Tensor r = untraced([&] { return a.unsqueeze(dim); });
  const int64_t d = detail::wrap_dim(dim, a.dim() + 1, "Tensor::unsqueeze");
  return finish_view(r, a,
                     make_node("UnsqueezeBackward0", {&a},
                               [d](const Tensor& g, const Saved&) { return grads(g.squeeze(d)); }));
}

Tensor squeeze(const Tensor& a) {
  Tensor r = untraced([&] { return a.squeeze(); });
  return finish_view(
      r, a, make_node("SqueezeBackward0", {&a}, [shape = a.sizes()](const Tensor& g, const Saved&) {
        return grads(g.reshape(shape));
      }));
}

Tensor squeeze(const Tensor& a, int64_t dim) {
  Tensor r = untraced([&] { return a.squeeze(dim); });
  return finish_view(
      r, a, make_node("SqueezeBackward1", {&a}, [shape = a.sizes()](const Tensor& g, const Saved&) {
        return grads(g.reshape(shape));
      }));
}

Tensor expand(const Tensor& a, std::vector<int64_t> sizes) {
  Tensor r = untraced([&] { return a.expand(std::move(sizes)); });
  return finish_view(
      r, a, make_node("ExpandBackward0", {&a}, [shape = a.shape()](const Tensor& g, const Saved&) {
        return grads(sum_to(g, shape));
      }));
}

}  // namespace tide::autograd::traced
