#pragma once
// nn::LayerNorm and nn::GroupNorm (torch.nn's names and defaults): layer_norm and group_norm of
// tide/ops.h as modules, with the affine parameters "weight" (ones) and "bias" (zeros).

#include <cstdint>
#include <vector>

#include "tide/nn/module.h"

namespace tide::nn {

class LayerNorm : public Cloneable<LayerNorm> {
 public:
  /// Normalizes over the trailing dims given by normalized_shape; with elementwise_affine,
  /// weight and bias have normalized_shape.
  explicit LayerNorm(std::vector<int64_t> normalized_shape, double eps = 1e-5,
                     bool elementwise_affine = true);

  Tensor forward(const Tensor& input) override;
  void reset() override;
  /// weight = 1, bias = 0.
  void reset_parameters();

  std::vector<int64_t> normalized_shape;
  double eps;
  bool elementwise_affine;
  Tensor weight, bias;  // undefined without elementwise_affine
};

class GroupNorm : public Cloneable<GroupNorm> {
 public:
  /// input (N, num_channels, ...) normalized per group of num_channels / num_groups channels;
  /// with affine, per-channel weight and bias of num_channels.
  GroupNorm(int64_t num_groups, int64_t num_channels, double eps = 1e-5, bool affine = true);

  Tensor forward(const Tensor& input) override;
  void reset() override;
  /// weight = 1, bias = 0.
  void reset_parameters();

  int64_t num_groups, num_channels;
  double eps;
  bool affine;
  Tensor weight, bias;  // undefined without affine
};

}  // namespace tide::nn
