#pragma once
// The float32 convolutions on oneDNN (built when TIDE_ONEDNN is on; kernels/cpu/conv_kernels.h
// says what each computes). Only this folder includes dnnl.hpp.

#include "kernels/conv_geometry.h"
#include "tide/tensor.h"

namespace tide::kernels::onednn {

void conv2d_forward(const Tensor& out, const Tensor& input, const Tensor& weight,
                    const Tensor& bias, const ConvGeometry& g);
void conv2d_backward_input(const Tensor& grad_input, const Tensor& grad_out, const Tensor& weight,
                           const ConvGeometry& g);
void conv2d_backward_weight(const Tensor& grad_weight, const Tensor& grad_bias,
                            const Tensor& input, const Tensor& grad_out, const ConvGeometry& g);

}  // namespace tide::kernels::onednn
