#pragma once
// nn::Linear: y = x W^T + b (torch.nn.Linear), initialized as torch does.

#include <cstdint>

#include "tide/nn/module.h"

namespace tide::nn {

class Linear : public Cloneable<Linear> {
 public:
  /// weight (out, in) and bias (out) drawn from U(-1/sqrt(in), 1/sqrt(in)) with the default
  /// generator (torch's kaiming_uniform_(a=sqrt(5)) and bias rule), so manual_seed fixes them.
  Linear(int64_t in_features, int64_t out_features, bool bias = true);

  /// input (..., in_features) -> (..., out_features).
  Tensor forward(const Tensor& input) override;
  /// Registers weight and bias as fresh, uninitialized tensors (clone fills them).
  void reset() override;
  /// Draws weight and bias again, as the constructor does.
  void reset_parameters();

  int64_t in_features, out_features;
  bool has_bias;
  Tensor weight, bias;  // bias is undefined when has_bias is false
};

}  // namespace tide::nn
