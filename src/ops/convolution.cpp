// conv2d and conv1d (torch.nn.functional.conv2d / conv1d).
//
// Note [Convolution front end]: every form of the call — int or word padding, batched or one
// image, conv1d — becomes one checked ConvPlan (kernels/conv_geometry.h) over contiguous 4-d
// NCHW tensors, and then one run_kernel. The derivative (autograd/traced_conv.cpp) keeps the
// plan, so backward launches its two kernels on the same geometry without re-deriving it.
// conv1d is conv2d over a height of 1 (views, so its gradient comes through conv2d's).

#include "ops/convolution.h"

#include <string>

#include "kernels/conv_stubs.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tensor/memory_format.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

std::string sizes_text(const Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

/// torch's int[2]: one value for both dims, or one per dim.
void pair_of(IntArrayRef values, const char* name, const char* where, int64_t out[2]) {
  TIDE_CHECK(values.size() == 1 || values.size() == 2, "[", where, "] expected ", name,
             " to be a single integer value or a list of 2 values to match the convolution "
             "dimensions, but got ",
             name, " with ", values.size(), " values; pass one int or two");
  out[0] = values[0];
  out[1] = values[values.size() - 1];
}

}  // namespace

ConvPadding conv_padding(IntArrayRef padding, const char* where) {
  ConvPadding p;
  pair_of(padding, "padding", where, p.begin);
  TIDE_CHECK(p.begin[0] >= 0 && p.begin[1] >= 0, "[", where,
             "] negative padding is not supported; pass padding >= 0");
  p.end[0] = p.begin[0];
  p.end[1] = p.begin[1];
  return p;
}

ConvPadding conv_padding(PaddingMode padding, const Tensor& weight, IntArrayRef stride,
                         IntArrayRef dilation, const char* where) {
  ConvPadding p;
  if (padding.is_valid()) return p;
  TIDE_CHECK(padding.is_same(), "[", where, "] Invalid padding string: '",
             std::string(padding.word()), "'; expected \"same\" or \"valid\"");
  int64_t s[2], d[2];
  pair_of(stride, "stride", where, s);
  pair_of(dilation, "dilation", where, d);
  TIDE_CHECK(s[0] == 1 && s[1] == 1, "[", where,
             "] padding='same' is not supported for strided convolutions; use stride 1 or "
             "give the padding as numbers");
  check_defined(weight, where, "weight");
  TIDE_CHECK(weight.dim() == 4, "[", where, "] expected a 4-d weight, found ",
             sizes_text(weight));
  for (int i = 0; i < 2; ++i) {
    // torch puts the odd element of the total padding at the end.
    const int64_t total = d[i] * (weight.size(2 + i) - 1);
    p.begin[i] = total / 2;
    p.end[i] = total - total / 2;
  }
  return p;
}

bool needs_explicit_padding(const Tensor& input, const ConvPadding& padding) {
  const bool asymmetric =
      padding.begin[0] != padding.end[0] || padding.begin[1] != padding.end[1];
  return asymmetric && input.defined() && input.is_cuda() && runtime::native_kernels();
}

Tensor conv2d_explicitly_padded(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                IntArrayRef stride, const ConvPadding& padding,
                                IntArrayRef dilation, int64_t groups) {
  Tensor x = input;
  for (int i = 0; i < 2; ++i) {
    const int64_t extra = padding.end[i] - padding.begin[i];
    if (extra == 0) continue;
    const int64_t dim = x.dim() - 2 + i;
    std::vector<int64_t> shape = x.sizes();
    shape[static_cast<size_t>(dim)] = extra;
    x = tide::cat({x, tide::zeros(shape, tide::device(x.device()).dtype(x.dtype()))}, dim);
  }
  return tide::conv2d(x, weight, bias, std::move(stride), {padding.begin[0], padding.begin[1]},
                      std::move(dilation), groups);
}

ConvPlan plan_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     IntArrayRef stride, const ConvPadding& padding, IntArrayRef dilation,
                     int64_t groups, const char* where) {
  check_defined(input, where, "input");
  check_defined(weight, where, "weight");
  same_device({{"input", &input}, {"weight", &weight}, {"bias", &bias}}, where);
  TIDE_CHECK(input.dim() == 3 || input.dim() == 4, "[", where,
             "] Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: ",
             sizes_text(input));
  TIDE_CHECK(weight.dim() == 4, "[", where,
             "] expected weight to be 4-dimensional (out_channels, in_channels / groups, kH, "
             "kW), but got weight of size ",
             sizes_text(weight));
  TIDE_CHECK(input.dtype() == kFloat32 || input.dtype() == kFloat64, "[", where,
             "] \"slow_conv2d_cpu\" not implemented for '", torch_type_name(input.dtype()),
             "'; convert the input to float32 or float64 first");
  TIDE_CHECK(weight.dtype() == input.dtype() && (!bias.defined() || bias.dtype() == input.dtype()),
             "[", where, "] expected input, weight and bias of one dtype, found input ",
             name(input.dtype()), ", weight ", name(weight.dtype()),
             bias.defined() ? ", bias " : "", bias.defined() ? name(bias.dtype()) : "",
             "; convert them with .to(dtype)");
  TIDE_CHECK(groups > 0, "[", where, "] non-positive groups is not supported");
  ConvPlan plan;
  plan.unbatched = input.dim() == 3;
  kernels::ConvGeometry& g = plan.geometry;
  const int64_t off = plan.unbatched ? 1 : 0;
  g.batch = plan.unbatched ? 1 : input.size(0);
  g.in_channels = input.size(1 - off);
  g.in_h = input.size(2 - off);
  g.in_w = input.size(3 - off);
  g.out_channels = weight.size(0);
  g.kernel_h = weight.size(2);
  g.kernel_w = weight.size(3);
  g.groups = groups;
  pair_of(stride, "stride", where, g.stride);
  pair_of(dilation, "dilation", where, g.dilation);
  TIDE_CHECK(g.stride[0] > 0 && g.stride[1] > 0, "[", where,
             "] non-positive stride is not supported");
  TIDE_CHECK(g.dilation[0] > 0 && g.dilation[1] > 0, "[", where,
             "] dilation should be greater than zero");
  TIDE_CHECK(g.out_channels % groups == 0, "[", where, "] Given groups=", groups,
             ", expected weight to be divisible by ", groups,
             " at dimension 0, but got weight of size ", sizes_text(weight), " instead");
  TIDE_CHECK(g.in_channels == weight.size(1) * groups, "[", where, "] Given groups=", groups,
             ", weight of size ", sizes_text(weight), ", expected input", sizes_text(input),
             " to have ", weight.size(1) * groups, " channels, but got ", g.in_channels,
             " channels instead");
  TIDE_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == g.out_channels), "[",
             where, "] Given weight of size ", sizes_text(weight),
             ", expected bias to be 1-dimensional with ", g.out_channels,
             " elements, but got bias of size ", bias.defined() ? sizes_text(bias) : "", " instead");
  for (int i = 0; i < 2; ++i) {
    g.pad_begin[i] = padding.begin[i];
    g.pad_end[i] = padding.end[i];
  }
  const int64_t padded_h = g.in_h + g.pad_begin[0] + g.pad_end[0];
  const int64_t padded_w = g.in_w + g.pad_begin[1] + g.pad_end[1];
  const int64_t extent_h = g.dilation[0] * (g.kernel_h - 1) + 1;
  const int64_t extent_w = g.dilation[1] * (g.kernel_w - 1) + 1;
  TIDE_CHECK(padded_h >= extent_h && padded_w >= extent_w, "[", where,
             "] Calculated padded input size per channel: (", padded_h, " x ", padded_w,
             "). Kernel size: (", extent_h, " x ", extent_w,
             "). Kernel size can't be greater than actual input size");
  g.out_h = (padded_h - extent_h) / g.stride[0] + 1;
  g.out_w = (padded_w - extent_w) / g.stride[1] + 1;
  // torch's rule: a batched convolution is channels-last (its output, its gradients and what
  // its kernels read) when the input or the weight suggests channels-last (Note [Memory
  // formats] in tensor/memory_format.cpp); oneDNN and cuDNN take it where it lies.
  g.channels_last = !plan.unbatched &&
                    (input.suggest_memory_format() == MemoryFormat::ChannelsLast ||
                     weight.suggest_memory_format() == MemoryFormat::ChannelsLast);
  return plan;
}

namespace {

/// The layout every 4-d operand of the plan's kernels has (ConvGeometry::channels_last).
MemoryFormat format_of(const ConvPlan& plan) {
  return plan.geometry.channels_last ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
}

/// A new 4-d tensor of `sizes` in the plan's layout.
Tensor empty_in(const ConvPlan& plan, const DimVector& sizes, Dtype dtype, Device device) {
  return make_empty_strided(sizes, strides_for(format_of(plan), sizes, "conv2d"), dtype, device);
}

}  // namespace

Tensor run_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const ConvPlan& plan) {
  const kernels::ConvGeometry& g = plan.geometry;
  const MemoryFormat f = format_of(plan);
  const Tensor x = (plan.unbatched ? input.unsqueeze(0) : input).contiguous(f);
  Tensor out = empty_in(plan, {g.batch, g.out_channels, g.out_h, g.out_w}, input.dtype(),
                        input.device());
  run_kernel(input.device(), "conv2d", kernels::conv2d_stub, out, x, weight.contiguous(f),
             bias.defined() ? bias.contiguous() : Tensor(), g);
  return plan.unbatched ? out.squeeze(0) : out;
}

ConvGrads conv2d_backward(const Tensor& grad_out, const Tensor& input, const Tensor& weight,
                          const ConvPlan& plan, bool need_input, bool need_weight,
                          bool need_bias) {
  const kernels::ConvGeometry& g = plan.geometry;
  const Device device = grad_out.device();
  const Dtype dtype = grad_out.dtype();
  const MemoryFormat f = format_of(plan);
  const Tensor gy = (plan.unbatched ? grad_out.unsqueeze(0) : grad_out).contiguous(f);
  ConvGrads grads;
  if (need_input) {
    grads.input = empty_in(plan, {g.batch, g.in_channels, g.in_h, g.in_w}, dtype, device);
    run_kernel(device, "conv2d_backward_input", kernels::conv2d_backward_input_stub,
               grads.input, gy, weight.contiguous(f), g);
    if (plan.unbatched) grads.input = grads.input.squeeze(0);
  }
  if (need_weight || need_bias) {
    // The weight's kernel also sums the bias gradient in the same pass over grad_out.
    const Tensor x = (plan.unbatched ? input.unsqueeze(0) : input).contiguous(f);
    Tensor gw = empty_in(plan, weight.shape(), dtype, device);
    if (need_bias) grads.bias = make_empty({g.out_channels}, dtype, device);
    run_kernel(device, "conv2d_backward_weight", kernels::conv2d_backward_weight_stub, gw,
               grads.bias, x, gy, g);
    if (need_weight) grads.weight = gw;
  }
  return grads;
}

// ---- the table's front ends (ops.yaml, family convolution)

Tensor plain_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                    int64_t groups) {
  const ConvPadding p = conv_padding(padding, "conv2d");
  return run_conv2d(input, weight, bias,
                    plan_conv2d(input, weight, bias, stride, p, dilation, groups, "conv2d"));
}

Tensor plain_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, PaddingMode padding, IntArrayRef dilation,
                    int64_t groups) {
  const ConvPadding p = conv_padding(padding, weight, stride, dilation, "conv2d");
  if (needs_explicit_padding(input, p)) {
    return conv2d_explicitly_padded(input, weight, bias, stride, p, dilation, groups);
  }
  return run_conv2d(input, weight, bias,
                    plan_conv2d(input, weight, bias, stride, p, dilation, groups, "conv2d"));
}

Tensor conv1d_as_2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                    int64_t groups) {
  check_defined(input, "conv1d", "input");
  check_defined(weight, "conv1d", "weight");
  TIDE_CHECK(input.dim() == 2 || input.dim() == 3, "[conv1d] Expected 2D (unbatched) or 3D "
             "(batched) input to conv1d, but got input of size: ", sizes_text(input));
  TIDE_CHECK(weight.dim() == 3, "[conv1d] expected weight to be 3-dimensional (out_channels, "
             "in_channels / groups, k), but got weight of size ", sizes_text(weight));
  const auto one = [](IntArrayRef v, const char* name) {
    TIDE_CHECK(v.size() == 1, "[conv1d] expected ", name,
               " to be a single integer value or a list of 1 value, but got ", v.size(),
               " values");
    return IntArrayRef({1, v[0]});
  };
  const IntArrayRef pad({0, one(padding, "padding")[1]});
  const int64_t h = input.dim() - 1;  // the height dim, inserted before the length
  return tide::conv2d(input.unsqueeze(h), weight.unsqueeze(2), bias, one(stride, "stride"), pad,
                      one(dilation, "dilation"), groups)
      .squeeze(h);
}

Tensor plain_conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                    int64_t groups) {
  return conv1d_as_2d(input, weight, bias, stride, padding, dilation, groups);
}

}  // namespace tide::detail
