#pragma once
// nn::MSELoss: mse_loss(input, target) as a module (torch.nn.MSELoss).

#include "tide/nn/module.h"
#include "tide/ops.h"

namespace tide::nn {

class MSELoss : public Cloneable<MSELoss> {
 public:
  explicit MSELoss(Reduction reduction = Reduction::Mean) : reduction(reduction) {}

  /// The squared differences, broadcast as torch does, reduced by `reduction`.
  Tensor forward(const Tensor& input, const Tensor& target);
  Tensor operator()(const Tensor& input, const Tensor& target) { return forward(input, target); }
  /// Losses take two inputs; the one-input forward throws and says so.
  Tensor forward(const Tensor& input) override;
  void reset() override {}

  Reduction reduction;
};

}  // namespace tide::nn
