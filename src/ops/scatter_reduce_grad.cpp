// Note [scatter_reduce gradients]: sum and mean are compositions of put_ and div_ and record
// through them (Note [scatter_reduce] in ops/indexing_along_dim.cpp); prod, amax and amin run a
// kernel that records nothing, so they are one custom-function node here with torch 1.13's
// formulas (derivatives.yaml's scatter_reduce_backward), checked against torch's own gradients
// and by finite differences:
//   amax, amin: the gradient is shared evenly among the values equal to the result (self's
//     own counted even when include_self is false, as torch does), then zero for self where
//     include_self is false.
//   prod: grad * result / x, with the zeros handled exactly: self's through the product taken
//     with self's zeros as ones; a src zero alone at its place gets the product of the others.
// The forward snapshots self (the in-place form overwrites it after recording) and saves the
// result through the context, so the node holds no cycle through its own output.

#include "ops/scatter_reduce_grad.h"

#include <memory>
#include <optional>
#include <vector>

#include "tide/custom_function.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

/// g (index's shape) placed at the front of zeros of src's shape: scatter_reduce reads only the
/// leading part of a src larger than index.
Tensor padded_to(const Tensor& g, const Tensor& src) {
  if (g.shape() == src.shape()) return g;
  Tensor out = zeros_like(src);
  Tensor part = out;
  for (int64_t k = 0; k < g.dim(); ++k) part = part.narrow(k, 0, g.size(k));
  part.copy_(g);
  return out;
}

std::vector<Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self,
                                            int64_t dim, const Tensor& index,
                                            const Tensor& src, const Tensor& result,
                                            const std::string& reduce, bool include_self) {
  Tensor grad_self;
  Tensor grad_src;
  if (reduce == "prod") {
    const Tensor masked_self = self.masked_fill(self.eq(0), 1);
    const Tensor masked_self_result =
        masked_self.scatter_reduce(dim, index, src, reduce, include_self);
    grad_self = grad * masked_self_result / masked_self;
    const Tensor src_zero = src.eq(0);
    const Tensor src_num_zeros =
        zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype())).gather(dim, index);
    const Tensor src_single_zero = logical_and(src_zero, src_num_zeros.eq(1));
    const Tensor masked_src_result =
        self.scatter_reduce(dim, index, src.masked_fill(src_single_zero, 1), reduce,
                            include_self);
    grad_src = where(src_single_zero, (grad * masked_src_result).gather(dim, index),
                     (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1));
  } else {  // amax, amin
    const Tensor value = result.gather(dim, index);
    const Tensor self_is_result = self.eq(result).to(self.dtype());
    const Tensor src_is_result = src.eq(value).to(self.dtype());
    const Tensor count = self_is_result.scatter_add(dim, index, src_is_result);
    const Tensor shared = grad / count;
    grad_self = self_is_result * shared;
    grad_src = src_is_result * shared.gather(dim, index);
  }
  if (!include_self) grad_self = grad_self.scatter(dim, index, 0.0);
  return {grad_self, grad_src};
}

}  // namespace

Tensor scatter_reduce_recorded(const Tensor& self, int64_t dim, const Tensor& index,
                               const Tensor& src, const std::string& reduce, bool include_self) {
  auto ctx = std::make_shared<autograd::AutogradContext>();
  const Tensor self_before = self.detach().clone();
  // The leading part of src that index reads, so that the formulas' shapes meet.
  Tensor src_read = src.detach();
  for (int64_t k = 0; k < index.dim(); ++k) src_read = src_read.narrow(k, 0, index.size(k));
  const Tensor index_kept = index;
  const Tensor src_kept = src.detach();
  std::vector<Tensor> out = autograd::detail::apply_function(
      "ScatterReduceBackward0", ctx, {self, src},
      [&] {
        Tensor result = self_before.scatter_reduce(dim, index, src_read, reduce, include_self);
        ctx->save_for_backward({result});
        return std::vector<Tensor>{result};
      },
      [self_before, dim, index_kept, src_read, src_kept, reduce, include_self](
          autograd::AutogradContext* c, std::vector<Tensor> grads) {
        const Tensor result = c->get_saved_variables()[0];
        std::vector<Tensor> g = scatter_reduce_backward(
            grads[0], self_before, dim, index_kept, src_read, result, reduce, include_self);
        return std::vector<Tensor>{g[0], padded_to(g[1], src_kept)};
      });
  return out[0];
}

}  // namespace tide::detail
