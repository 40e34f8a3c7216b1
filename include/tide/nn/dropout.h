#pragma once
// nn::Dropout: zeroes each element with probability p in training mode and scales the rest by
// 1/(1-p); the identity in eval mode (torch.nn.Dropout). The mask comes from the input
// device's Philox generator, so manual_seed fixes it on every device alike.

#include "tide/nn/module.h"

namespace tide::nn {

class Dropout : public Cloneable<Dropout> {
 public:
  /// p in [0, 1].
  explicit Dropout(double p = 0.5);
  Tensor forward(const Tensor& input) override;
  void reset() override {}

  double p;
};

}  // namespace tide::nn
