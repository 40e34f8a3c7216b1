#include "tide/nn/pooling.h"

#include "tide/ops.h"

namespace tide::nn {

MaxPool2d::MaxPool2d(IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                     IntArrayRef dilation, bool ceil_mode)
    : kernel_size(kernel_size),
      stride(stride),
      padding(padding),
      dilation(dilation),
      ceil_mode(ceil_mode) {}

Tensor MaxPool2d::forward(const Tensor& input) {
  return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode);
}

std::tuple<Tensor, Tensor> MaxPool2d::forward_with_indices(const Tensor& input) {
  return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode);
}

AvgPool2d::AvgPool2d(IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                     bool ceil_mode, bool count_include_pad,
                     std::optional<int64_t> divisor_override)
    : kernel_size(kernel_size),
      stride(stride),
      padding(padding),
      ceil_mode(ceil_mode),
      count_include_pad(count_include_pad),
      divisor_override(divisor_override) {}

Tensor AvgPool2d::forward(const Tensor& input) {
  return avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                    divisor_override);
}

AdaptiveAvgPool2d::AdaptiveAvgPool2d(IntArrayRef output_size) : output_size(output_size) {}

Tensor AdaptiveAvgPool2d::forward(const Tensor& input) {
  return adaptive_avg_pool2d(input, output_size);
}

}  // namespace tide::nn
