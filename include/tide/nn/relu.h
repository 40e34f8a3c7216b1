#pragma once
// nn::ReLU: max(x, 0), elementwise (torch.nn.ReLU).

#include "tide/nn/module.h"

namespace tide::nn {

class ReLU : public Cloneable<ReLU> {
 public:
  ReLU() = default;
  Tensor forward(const Tensor& input) override;
  void reset() override {}
};

}  // namespace tide::nn
