#pragma once
// nn::Conv2d (torch.nn.Conv2d), built from arguments as in Python or from Conv2dOptions as in
// libtorch: Conv2d(Conv2dOptions(3, 16, 3).stride(2).padding(1)).

#include <cstdint>
#include <optional>
#include <string>

#include "tide/int_array_ref.h"
#include "tide/nn/module.h"
#include "tide/padding_mode.h"

namespace tide::nn {

/// Chainable options, libtorch's names: each setter returns *this, each getter the value.
class Conv2dOptions {
 public:
  Conv2dOptions(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  Conv2dOptions& stride(IntArrayRef v) { stride_ = v; return *this; }
  /// Numbers, or the word "same" / "valid".
  Conv2dOptions& padding(IntArrayRef v) { padding_ = v; padding_word_.reset(); return *this; }
  Conv2dOptions& padding(PaddingMode v) { padding_word_ = std::string(v.word()); return *this; }
  Conv2dOptions& dilation(IntArrayRef v) { dilation_ = v; return *this; }
  Conv2dOptions& groups(int64_t v) { groups_ = v; return *this; }
  Conv2dOptions& bias(bool v) { bias_ = v; return *this; }

  int64_t in_channels() const { return in_channels_; }
  int64_t out_channels() const { return out_channels_; }
  const IntArrayRef& kernel_size() const { return kernel_size_; }
  const IntArrayRef& stride() const { return stride_; }
  const IntArrayRef& padding() const { return padding_; }
  /// The padding word, when the padding was given as one.
  const std::optional<std::string>& padding_word() const { return padding_word_; }
  const IntArrayRef& dilation() const { return dilation_; }
  int64_t groups() const { return groups_; }
  bool bias() const { return bias_; }

 private:
  int64_t in_channels_, out_channels_;
  IntArrayRef kernel_size_, stride_ = 1, padding_ = 0, dilation_ = 1;
  std::optional<std::string> padding_word_;
  int64_t groups_ = 1;
  bool bias_ = true;
};

class Conv2d : public Cloneable<Conv2d> {
 public:
  /// weight (out, in / groups, kH, kW) and bias (out) drawn from U(-1/sqrt(fan_in),
  /// 1/sqrt(fan_in)), fan_in = in / groups * kH * kW (torch's kaiming_uniform_(a=sqrt(5)) and
  /// bias rule), weight first, with the default generator: manual_seed fixes them.
  explicit Conv2d(Conv2dOptions options);
  Conv2d(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size,
         IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
         int64_t groups = 1, bool bias = true);
  /// padding "same" or "valid", as nn.Conv2d(..., padding="same").
  Conv2d(int64_t in_channels, int64_t out_channels, IntArrayRef kernel_size, IntArrayRef stride,
         PaddingMode padding, IntArrayRef dilation = 1, int64_t groups = 1, bool bias = true);

  /// input (N, in, H, W) or (in, H, W).
  Tensor forward(const Tensor& input) override;
  void reset() override;
  void reset_parameters();

  Conv2dOptions options;
  Tensor weight, bias;  // bias is undefined without one
};

}  // namespace tide::nn
