#pragma once
// Pooling's front end pieces that the derivatives (autograd/traced_pool.cpp) share.

#include "kernels/conv_geometry.h"
#include "tide/dim_vector.h"
#include "tide/int_array_ref.h"
#include "tide/tensor.h"

namespace tide::detail {

/// A checked pooling call: its geometry over N * C planes, and the input's and output's shapes
/// ((N, C, H, W) or one image's (C, H, W)).
struct PoolPlan {
  kernels::PoolGeometry geometry;
  DimVector in_shape, out_shape;
  /// The input suggests channels-last: the output and the input's gradient are laid out so,
  /// as torch's (Note [Memory formats] in tensor/memory_format.cpp).
  bool channels_last = false;
};

PoolPlan plan_max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, IntArrayRef dilation, bool ceil_mode);
PoolPlan plan_avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                         std::optional<int64_t> divisor_override);
PoolPlan plan_adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);

/// The gradient of each pooling's input, from grad_out in the output's shape.
Tensor max_pool2d_backward(const Tensor& grad_out, const Tensor& indices, const PoolPlan& plan);
Tensor avg_pool2d_backward(const Tensor& grad_out, const PoolPlan& plan);
Tensor adaptive_avg_pool2d_backward(const Tensor& grad_out, const PoolPlan& plan);

}  // namespace tide::detail
