// Derivatives of max_pool2d (torch's MaxPool2DWithIndicesBackward0), avg_pool2d and
// adaptive_avg_pool2d: each backward kernel runs on the forward call's plan (ops/pooling.h).

#include <tuple>

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "ops/plain_front_ends.h"
#include "ops/pooling.h"

namespace tide::autograd::traced {

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  const detail::PoolPlan plan =
      detail::plan_max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode);
  auto [out, indices] = untraced([&] {
    return detail::plain_max_pool2d_with_indices(self, kernel_size, stride, padding, dilation,
                                                 ceil_mode);
  });
  auto node = make_node("MaxPool2DWithIndicesBackward0", {&self},
                        [plan](const Tensor& g, const Saved& s) {
                          return grads(detail::max_pool2d_backward(g, s[0], plan));
                        });
  if (node) {
    node->save(indices);
    node->set_once_differentiable();  // Note [create_graph] in autograd/engine.h
  }
  set_history(out, node);
  return {out, indices};
}

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(traced::max_pool2d_with_indices(self, std::move(kernel_size),
                                                     std::move(stride),
                                             std::move(padding), std::move(dilation),
                                             ceil_mode));
}

Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  const detail::PoolPlan plan = detail::plan_avg_pool2d(
      self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  Tensor out = untraced([&] {
    return detail::plain_avg_pool2d(self, kernel_size, stride, padding, ceil_mode,
                                    count_include_pad, divisor_override);
  });
  auto node = make_node("AvgPool2DBackward0", {&self}, [plan](const Tensor& g, const Saved&) {
    return grads(detail::avg_pool2d_backward(g, plan));
  });
  if (node) node->set_once_differentiable();
  set_history(out, node);
  return out;
}

Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  const detail::PoolPlan plan = detail::plan_adaptive_avg_pool2d(self, output_size);
  Tensor out = untraced([&] { return detail::plain_adaptive_avg_pool2d(self, output_size); });
  auto node = make_node("AdaptiveAvgPool2DBackward0", {&self},
                        [plan](const Tensor& g, const Saved&) {
                          return grads(detail::adaptive_avg_pool2d_backward(g, plan));
                        });
  if (node) node->set_once_differentiable();
  set_history(out, node);
  return out;
}

}  // namespace tide::autograd::traced
