// Derivatives of conv2d and conv1d (torch's ConvolutionBackward0). Backward runs the two
// backward kernels on the forward call's plan (Note [Convolution front end]); the gradients
// are not themselves differentiable (no double backward through a convolution yet: the node is
// once-differentiable, Note [create_graph] in autograd/engine.h).

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "ops/convolution.h"

namespace tide::autograd::traced {
namespace {

Tensor record_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const detail::ConvPlan& plan) {
  Tensor r = untraced([&] { return detail::run_conv2d(input, weight, bias, plan); });
  auto node = make_node("ConvolutionBackward0", {&input, &weight, &bias},
                        [plan](const Tensor& g, const Saved& s) {
                          detail::ConvGrads d = detail::conv2d_backward(
                              g, s[0], s[1], plan, s.needs(0), s.needs(1), s.needs(2));
                          return grads(d.input, d.weight, d.bias);
                        });
  if (node) {
    node->save(input);
    node->save(weight);
    node->set_once_differentiable();
  }
  set_history(r, node);
  return r;
}

}  // namespace

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const detail::ConvPadding p = detail::conv_padding(padding, "conv2d");
  return record_conv2d(input, weight, bias,
                       detail::plan_conv2d(input, weight, bias, stride, p, dilation, groups,
                                           "conv2d"));
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              PaddingMode padding, IntArrayRef dilation, int64_t groups) {
  const detail::ConvPadding p = detail::conv_padding(padding, weight, stride, dilation, "conv2d");
  if (detail::needs_explicit_padding(input, p)) {
    return detail::conv2d_explicitly_padded(input, weight, bias, stride, p, dilation, groups);
  }
  return record_conv2d(input, weight, bias,
                       detail::plan_conv2d(input, weight, bias, stride, p, dilation, groups,
                                           "conv2d"));
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  // Views and conv2d, each recorded by its own front end.
  return detail::conv1d_as_2d(input, weight, bias, stride, padding, dilation, groups);
}

}  // namespace tide::autograd::traced
