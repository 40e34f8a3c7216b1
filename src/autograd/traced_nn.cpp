// Derivatives of softmax, log_softmax and nll_loss (cross_entropy is log_softmax + nll_loss and
// records as those two, as in torch).

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
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

namespace {

/// nll_loss's gradient as a recorded op of g (create_graph): nll_loss is linear in its input, so
/// its backward is the adjoint map of g, whose own backward is nll_loss again (torch's
/// nll_loss_backward's derivative in derivatives.yaml). Records when g requires grad.
void record_backward_of_backward(const Tensor& grad_input, const std::vector<int64_t>& input_shape,
                                 const Tensor& g, const Tensor& target, const Tensor& weight,
                                 Reduction reduction, int64_t ignore_index) {
  auto node = make_node(
      "NllLossBackwardBackward0", {&g},
      [reduction, ignore_index, input_shape, shape = g.sizes()](const Tensor& gg, const Saved& s) {
        return grads(tide::nll_loss(gg.reshape(input_shape), s[0], s[1], reduction, ignore_index)
                         .reshape(shape));
      });
  if (!node) return;
  node->save(target);
  node->save(weight);
  set_history(grad_input, node);
}

}  // namespace

// nll_loss's gradient has its own kernel (kernels/cpu/backward_kernels.h): one pass that writes
// -weight[t] * g at each target and 0 elsewhere, instead of a one-hot mask and four ops.
Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight,
                Reduction reduction, int64_t ignore_index) {
  TIDE_CHECK(!weight.defined() || !weight.requires_grad(),
             "[nll_loss] the derivative for 'weight' "
             "is not implemented (as in torch); pass weight.detach()");
  Tensor r =
      untraced([&] { return tide::nll_loss(input, target, weight, reduction, ignore_index); });
  const kernels::LossReduction kr = reduction == Reduction::None  ? kernels::LossReduction::None
                                    : reduction == Reduction::Sum ? kernels::LossReduction::Sum
                                                                  : kernels::LossReduction::Mean;
  auto node = make_node(
      "NllLossBackward0", {&input},
      [kr, reduction, ignore_index, shape = input.sizes()](const Tensor& g, const Saved& s) {
        const Tensor t = s[0], w = s[1];
        const int64_t classes = shape.back(), rows = shape.size() == 1 ? 1 : shape[0];
        const Tensor grad_input = empty({rows, classes}, tide::device(g.device()).dtype(g.dtype()));
        detail::run_kernel(g.device(), "nll_loss_backward", kernels::nll_loss_backward_stub,
                           grad_input, g.contiguous(), t.reshape({-1}).contiguous(),
                           w.defined() ? w.contiguous() : Tensor(), kr, ignore_index);
        if (TIDE_UNLIKELY(g.requires_grad() && GradMode::is_enabled()))
          record_backward_of_backward(grad_input, shape, g, t, w, reduction, ignore_index);
        return grads(grad_input.view(shape));
      });
  if (node) {
    node->save(target);
    node->save(weight);
  }
  set_history(r, node);
  return r;
}

}  // namespace tide::autograd::traced
