// Derivatives of take and put_, the two kernels' ops under every indexing op (Note [Advanced
// indexing] in ops/indexing.cpp): index, index_put_ and the masked ops record through them.

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "autograd/view_history.h"
#include "tide/factories.h"

namespace tide::autograd::traced {
namespace {

bool operand_requires_grad(const Tensor& t) { return t.defined() && t.requires_grad(); }

/// Accumulates half-precision gradients in float32, as index_select's backward (Note
/// [index_select backward]): repeated indices would lose precision at every addition, and the
/// GPU's atomic adds serve float32 and float64.
Dtype accumulation_dtype(Dtype d) { return d == kFloat64 ? kFloat64 : kFloat32; }

}  // namespace

Tensor take(const Tensor& self, const Tensor& index) {
  Tensor r = untraced([&] { return tide::take(self, index); });
  auto node = make_node("TakeBackward0", {&self}, [shape = self.sizes()](const Tensor& g,
                                                                         const Saved& s) {
    const Dtype acc = accumulation_dtype(g.dtype());
    Tensor out = zeros(shape, tide::device(g.device()).dtype(acc));
    out.put_(s[0], g.to(acc), /*accumulate=*/true);
    return grads(out.to(g.dtype()));
  });
  if (node) node->save(index);
  set_history(r, node);
  return r;
}

Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  check_inplace(self, operand_requires_grad(source), "Tensor::put_");
  auto node = make_node("PutBackward0", {&self, &source},
                        [accumulate, source_shape = source.sizes()](const Tensor& g,
                                                                    const Saved& s) {
                          Tensor self_grad;
                          if (s.needs(0)) {
                            // Written elements took source's value: no gradient reaches the old
                            // ones, unless source was added to them.
                            self_grad = accumulate ? g
                                                   : g.put(s[0], zeros({s[0].numel()},
                                                                       tide::device(g.device())
                                                                           .dtype(g.dtype())));
                          }
                          return grads(self_grad, s.needs(1) ? g.take(s[0]).reshape(source_shape)
                                                             : Tensor());
                        });
  if (node) node->save(index);
  untraced([&] { return &self.put_(index, source, accumulate); });
  rebase_history(self, node);
  return self;
}

}  // namespace tide::autograd::traced
