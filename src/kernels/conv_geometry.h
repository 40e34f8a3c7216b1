#pragma once
// ConvGeometry and PoolGeometry: the sizes a convolution or pooling kernel needs, computed once
// by the op's front end (src/ops/convolution.cpp, src/ops/pooling.cpp) and shared by the cpu
// loops, oneDNN and cuDNN. Plain structs of integers: nvcc-compiled launchers include this too.
//
// Sizes follow torch: out = (in + pad_begin + pad_end - dilation * (kernel - 1) - 1) / stride + 1
// (floor; pooling's ceil_mode rounds up, but a window must start inside the input or the left
// padding). pad_begin and pad_end differ only for conv2d's padding="same" with an even extent
// dilation * (kernel - 1), where torch puts the extra element at the end.

#include <cstdint>

namespace tide::kernels {

struct ConvGeometry {
  int64_t batch = 0, in_channels = 0, in_h = 0, in_w = 0;
  int64_t out_channels = 0, kernel_h = 0, kernel_w = 0, groups = 1;
  int64_t out_h = 0, out_w = 0;
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t pad_begin[2] = {0, 0}, pad_end[2] = {0, 0};
  /// Every 4-d operand (input, weight, output and their gradients) has channels-last strides
  /// (NHWC and OHWI in memory); false: contiguous NCHW and OIHW. Bias is contiguous.
  bool channels_last = false;

  int64_t in_per_group() const { return in_channels / groups; }
  int64_t out_per_group() const { return out_channels / groups; }
};

/// One pooling window per output element over `planes` = N * C independent input planes.
struct PoolGeometry {
  int64_t planes = 0, in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t kernel[2] = {1, 1}, stride[2] = {1, 1}, pad[2] = {0, 0}, dilation[2] = {1, 1};
  // avg_pool2d only.
  bool count_include_pad = true;
  int64_t divisor_override = 0;  // 0: none
};

}  // namespace tide::kernels
