#pragma once
// nn::CrossEntropyLoss: cross_entropy(input, target) as a module (torch.nn.CrossEntropyLoss).
// The class weights are the buffer "weight", so criterion.cuda() moves them with the module.

#include <cstdint>

#include "tide/nn/module.h"
#include "tide/ops.h"

namespace tide::nn {

class CrossEntropyLoss : public Cloneable<CrossEntropyLoss> {
 public:
  /// weight: undefined, or one float per class. The module registers its own handle on the
  /// weight's storage, so moving the module does not move the caller's tensor.
  explicit CrossEntropyLoss(Tensor weight = {}, Reduction reduction = Reduction::Mean,
                            int64_t ignore_index = -100, double label_smoothing = 0.0);

  /// input (N, C, ...) logits or (C,); target class indices or class probabilities
  /// (tide::cross_entropy).
  Tensor forward(const Tensor& input, const Tensor& target);
  Tensor operator()(const Tensor& input, const Tensor& target) { return forward(input, target); }
  /// Losses take two inputs; the one-input forward throws and says so.
  Tensor forward(const Tensor& input) override;
  void reset() override;

  Tensor weight;
  Reduction reduction;
  int64_t ignore_index;
  double label_smoothing;
};

}  // namespace tide::nn
