#pragma once
// cpu convolution kernels over contiguous NCHW tensors (float32 and float64). float32 runs on
// oneDNN when tide is built with it (TIDE_ONEDNN, kernels/cpu/onednn/); float64 — which oneDNN
// does not compute, and which gradcheck uses — runs on the direct loops here, as torch's cpu
// convolution falls back to its own "slow" kernels for double.

#include "kernels/conv_geometry.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// out (N, O, OH, OW) = conv(input (N, C, H, W), weight (O, C/groups, kH, kW)) + bias (O) or
/// undefined.
void conv2d_kernel(const Tensor& out, const Tensor& input, const Tensor& weight,
                   const Tensor& bias, const ConvGeometry& g);
/// grad_input (N, C, H, W) from grad_out (N, O, OH, OW) and weight.
void conv2d_backward_input_kernel(const Tensor& grad_input, const Tensor& grad_out,
                                  const Tensor& weight, const ConvGeometry& g);
/// grad_weight (O, C/groups, kH, kW) and grad_bias (O, or undefined: not wanted) from input and
/// grad_out.
void conv2d_backward_weight_kernel(const Tensor& grad_weight, const Tensor& grad_bias,
                                   const Tensor& input, const Tensor& grad_out,
                                   const ConvGeometry& g);

/// Whether float32 convolutions run on oneDNN in this build (tide info).
bool conv_uses_onednn();

}  // namespace tide::kernels
