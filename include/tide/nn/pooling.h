#pragma once
// nn::MaxPool2d, nn::AvgPool2d and nn::AdaptiveAvgPool2d (torch.nn's): modules without
// parameters around the ops of the same names (tide/ops.h says how they pool).

#include <cstdint>
#include <optional>
#include <tuple>

#include "tide/int_array_ref.h"
#include "tide/nn/module.h"

namespace tide::nn {

class MaxPool2d : public Cloneable<MaxPool2d> {
 public:
  /// stride {} means kernel_size, as torch's stride=None.
  explicit MaxPool2d(IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                     IntArrayRef dilation = 1, bool ceil_mode = false);
  Tensor forward(const Tensor& input) override;
  /// torch's return_indices=True: the values and the flat index of each maximum.
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
  void reset() override {}

  IntArrayRef kernel_size, stride, padding, dilation;
  bool ceil_mode;
};

class AvgPool2d : public Cloneable<AvgPool2d> {
 public:
  explicit AvgPool2d(IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                     bool ceil_mode = false, bool count_include_pad = true,
                     std::optional<int64_t> divisor_override = std::nullopt);
  Tensor forward(const Tensor& input) override;
  void reset() override {}

  IntArrayRef kernel_size, stride, padding;
  bool ceil_mode, count_include_pad;
  std::optional<int64_t> divisor_override;
};

class AdaptiveAvgPool2d : public Cloneable<AdaptiveAvgPool2d> {
 public:
  explicit AdaptiveAvgPool2d(IntArrayRef output_size);
  Tensor forward(const Tensor& input) override;
  void reset() override {}

  IntArrayRef output_size;
};

}  // namespace tide::nn
