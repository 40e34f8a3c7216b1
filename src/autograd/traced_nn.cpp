// Derivatives of softmax, log_softmax and nll_loss (cross_entropy is log_softmax + nll_loss and
// records as those two, as in torch).

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "tide/factories.h"

namespace tide::autograd::traced {

Tensor softmax(const Tensor& a, int64_t dim) {
  Tensor r = untraced([&] { return tide::softmax(a, dim); });
  auto node = make_node("SoftmaxBackward0", {&a}, [dim](const Tensor& g, const Saved& s) {
    const Tensor y = s[0];
    const Tensor gy = g * y;
    return grads(gy - y * gy.sum(dim, /*keepdim=*/true));
  });
  set_history(r, node);
  if (node) node->save_output(r);
  return r;
}

Tensor log_softmax(const Tensor& a, int64_t dim) {
  Tensor r = untraced([&] { return tide::log_softmax(a, dim); });
  auto node = make_node("LogSoftmaxBackward0", {&a}, [dim](const Tensor& g, const Saved& s) {
    return grads(g - tide::exp(s[0]) * g.sum(dim, /*keepdim=*/true));
  });
  set_history(r, node);
  if (node) node->save_output(r);
  return r;
}

// Note [nll_loss backward]: d loss / d input[i, c] is -w[t_i] * g_i at c == t_i (divided by the
// total weight of the non-ignored targets for Reduction::Mean) and 0 elsewhere, 0 for the whole
// row where t_i == ignore_index. Written with existing ops: a one-hot mask of the targets
// (eq against the class positions) times the per-row coefficient; ignored targets are replaced
// by class 0 before any lookup and their coefficient is 0.
Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight, Reduction reduction,
                int64_t ignore_index) {
  TIDE_CHECK(!weight.defined() || !weight.requires_grad(), "[nll_loss] the derivative for 'weight' "
             "is not implemented (as in torch); pass weight.detach()");
  Tensor r = untraced([&] { return tide::nll_loss(input, target, weight, reduction, ignore_index); });
  auto node = make_node("NllLossBackward0", {&input}, [reduction, ignore_index](const Tensor& g, const Saved& s) {
    const Tensor x = s[0], t = s[1], w = s[2];
    const Tensor valid = ne(t, ignore_index);
    const Tensor safe_t = tide::where(valid, t, 0);
    const int64_t classes = x.size(-1);
    Tensor row_w = w.defined() ? tide::index_select(w, 0, safe_t.reshape({-1})).reshape(t.sizes())
                               : ones(t.sizes(), tide::device(x.device()).dtype(x.dtype()));
    row_w = tide::where(valid, row_w, 0);
    Tensor coef = -g * row_w;  // g: per row (None) or 0-dim (Sum, Mean)
    if (reduction == Reduction::Mean) coef = coef / row_w.sum();
    const Tensor positions = arange(classes, tide::device(x.device()).dtype(kInt64));
    const Tensor hit = eq(safe_t.unsqueeze(-1), positions);  // (N, C) or (C,)
    return grads(tide::where(hit, coef.unsqueeze(-1), 0));
  });
  if (node) {
    node->save(input);
    node->save(target);
    node->save(weight);
  }
  set_history(r, node);
  return r;
}

}  // namespace tide::autograd::traced
