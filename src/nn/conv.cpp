#include "tide/nn/conv.h"

#include <cmath>

#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn {

Conv2d::Conv2d(Conv2dOptions options) : options(std::move(options)) {
  const Conv2dOptions& o = this->options;
  TIDE_CHECK(o.in_channels() > 0 && o.out_channels() > 0 && o.groups() > 0,
             "[nn::Conv2d] expected positive in_channels, out_channels and groups, got ",
             o.in_channels(), ", ", o.out_channels(), " and ", o.groups());
  TIDE_CHECK(o.in_channels() % o.groups() == 0, "[nn::Conv2d] in_channels must be divisible by "
             "groups; got in_channels=", o.in_channels(), " and groups=", o.groups());
  TIDE_CHECK(o.out_channels() % o.groups() == 0, "[nn::Conv2d] out_channels must be divisible "
             "by groups; got out_channels=", o.out_channels(), " and groups=", o.groups());
  TIDE_CHECK(o.kernel_size().size() == 1 || o.kernel_size().size() == 2,
             "[nn::Conv2d] expected kernel_size to be one int or two, got ",
             o.kernel_size().size(), " values");
  reset();
  reset_parameters();
}

namespace {

/// The positional arguments of nn.Conv2d but the padding, as options.
Conv2dOptions options_of(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size,
                         IntArrayRef stride, IntArrayRef dilation, int64_t groups, bool bias) {
  return Conv2dOptions(in_channels, out_channels, kernel_size)
      .stride(stride)
      .dilation(dilation)
      .groups(groups)
      .bias(bias);
}

}  // namespace

Conv2d::Conv2d(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size,
               IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups,
               bool bias)
    : Conv2d(options_of(in_channels, out_channels, kernel_size, stride, dilation, groups, bias)
                 .padding(padding)) {}

Conv2d::Conv2d(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size,
               IntArrayRef stride, PaddingMode padding, IntArrayRef dilation, int64_t groups,
               bool bias)
    : Conv2d(options_of(in_channels, out_channels, kernel_size, stride, dilation, groups, bias)
                 .padding(padding)) {}

void Conv2d::reset() {
  const IntArrayRef& k = options.kernel_size();
  weight = register_parameter("weight", empty({options.out_channels(),
                                               options.in_channels() / options.groups(), k[0],
                                               k[k.size() - 1]}));
  bias = options.bias() ? register_parameter("bias", empty({options.out_channels()})) : Tensor();
}

void Conv2d::reset_parameters() {
  NoGradGuard no_grad;
  const int64_t fan_in = weight.size(1) * weight.size(2) * weight.size(3);
  const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
  weight.uniform_(-bound, bound);
  if (bias.defined()) bias.uniform_(-bound, bound);
}

Tensor Conv2d::forward(const Tensor& input) {
  if (options.padding_word()) {
    return conv2d(input, weight, bias, options.stride(), PaddingMode(*options.padding_word()),
                  options.dilation(), options.groups());
  }
  return conv2d(input, weight, bias, options.stride(), options.padding(), options.dilation(),
                options.groups());
}

}  // namespace tide::nn
