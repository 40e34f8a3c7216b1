#pragma once
// conv2d's front end pieces that its derivative (autograd/traced_conv.cpp) shares: the
// checked geometry of a call and the backward kernels' launches.

#include "kernels/conv_geometry.h"
#include "tide/int_array_ref.h"
#include "tide/padding_mode.h"
#include "tide/tensor.h"

namespace tide::detail {

/// Padding before and after, per spatial dim (they differ only for padding="same").
struct ConvPadding {
  int64_t begin[2] = {0, 0}, end[2] = {0, 0};
};

/// A conv2d call, checked: the geometry of its batched (4-d) form, and whether the input was
/// one unbatched (C, H, W) image.
struct ConvPlan {
  kernels::ConvGeometry geometry;
  bool unbatched = false;
};

ConvPadding conv_padding(IntArrayRef padding, const char* where);
ConvPadding conv_padding(PaddingMode padding, const Tensor& weight, IntArrayRef stride,
                         IntArrayRef dilation, const char* where);

/// Whether a padding word's asymmetric padding must become explicit zeros first: on real GPUs,
/// whose cuDNN pads symmetrically (Note [cuDNN algorithms] in kernels/cuda/cudnn_conv.cpp).
bool needs_explicit_padding(const Tensor& input, const ConvPadding& padding);
/// conv2d(input with zeros appended for the padding's excess at the end, symmetric padding):
/// through tide::conv2d and cat, so autograd records it (torch does the same for cuDNN).
Tensor conv2d_explicitly_padded(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                IntArrayRef stride, const ConvPadding& padding,
                                IntArrayRef dilation, int64_t groups);

/// Checks a conv2d call as torch does (dims, channels, groups, bias, dtypes, devices, sizes).
ConvPlan plan_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     IntArrayRef stride, const ConvPadding& padding, IntArrayRef dilation,
                     int64_t groups, const char* where);

/// Runs a planned conv2d (plain: no recording).
Tensor run_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const ConvPlan& plan);

/// conv1d as conv2d over a height of 1, through tide::conv2d (so autograd records conv2d).
Tensor conv1d_as_2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                    int64_t groups);

struct ConvGrads {
  Tensor input, weight, bias;
};
/// The gradients a conv2d's inputs need (undefined where `need_*` is false), from grad_out in
/// the output's shape.
ConvGrads conv2d_backward(const Tensor& grad_out, const Tensor& input, const Tensor& weight,
                          const ConvPlan& plan, bool need_input, bool need_weight,
                          bool need_bias);

}  // namespace tide::detail
