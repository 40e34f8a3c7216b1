#pragma once
// cpu pooling kernels over contiguous (planes, H, W) tensors (planes = N * C), any floating
// dtype the front ends allow (float32, float64). Pooling is memory-bound: one pass over each
// window, parallel over planes; gradients are written per plane, so threads never share one.

#include "kernels/conv_geometry.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// out and indices (int64, the flat h * W + w of each maximum in its plane) of max pooling.
/// A NaN in a window wins (torch propagates NaN).
void max_pool2d_kernel(const Tensor& out, const Tensor& indices, const Tensor& input,
                       const PoolGeometry& g);
/// grad_input = 0, then grad_out scattered (added) to the recorded indices.
void max_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                const Tensor& indices, const PoolGeometry& g);
/// torch's divisor: divisor_override, or the window's size clipped to the padded input
/// (count_include_pad) or to the input itself.
void avg_pool2d_kernel(const Tensor& out, const Tensor& input, const PoolGeometry& g);
void avg_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                const PoolGeometry& g);
/// Output (i, j) averages rows [floor(i*H/OH), ceil((i+1)*H/OH)) and likewise columns.
void adaptive_avg_pool2d_kernel(const Tensor& out, const Tensor& input, const PoolGeometry& g);
void adaptive_avg_pool2d_backward_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                         const PoolGeometry& g);

}  // namespace tide::kernels
