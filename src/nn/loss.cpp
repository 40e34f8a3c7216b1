// The loss modules: CrossEntropyLoss, MSELoss and those of tide/nn/losses.h.

#include "tide/error.h"
#include "tide/nn/cross_entropy_loss.h"
#include "tide/nn/losses.h"
#include "tide/nn/mse_loss.h"

namespace tide::nn {

namespace {

[[noreturn]] void throw_one_input(const std::string& name) {
  throw Error("[nn::" + name + "] a loss takes (input, target), got only an input; call " +
              "criterion(output, target)");
}

}  // namespace

CrossEntropyLoss::CrossEntropyLoss(Tensor weight, Reduction reduction, int64_t ignore_index,
                                   double label_smoothing)
    : weight(std::move(weight)),
      reduction(reduction),
      ignore_index(ignore_index),
      label_smoothing(label_smoothing) {
  if (this->weight.defined()) {
    TIDE_CHECK(this->weight.dim() == 1 && this->weight.is_floating_point(),
               "[nn::CrossEntropyLoss] expected weight to be a 1D floating-point tensor of one "
               "weight per class, got a ",
               this->weight.dim(), "D ", tide::name(this->weight.dtype()),
               " tensor; pass e.g. tide::tensor({1., 2., 0.5}) for 3 classes");
  }
  reset();
}

void CrossEntropyLoss::reset() {
  // A new handle on the same storage (Note [Modules move in place]): moving the module must
  // not move the caller's tensor, and a clone's reset() must not share the original's.
  if (weight.defined()) weight = register_buffer("weight", weight.detach());
}

Tensor CrossEntropyLoss::forward(const Tensor& input, const Tensor& target) {
  return cross_entropy(input, target, weight, reduction, ignore_index, label_smoothing);
}

Tensor CrossEntropyLoss::forward(const Tensor& /*input*/) { throw_one_input(name()); }

Tensor MSELoss::forward(const Tensor& input, const Tensor& target) {
  return mse_loss(input, target, reduction);
}

Tensor MSELoss::forward(const Tensor& /*input*/) { throw_one_input(name()); }

Tensor L1Loss::forward(const Tensor& input, const Tensor& target) {
  return l1_loss(input, target, reduction);
}

Tensor SmoothL1Loss::forward(const Tensor& input, const Tensor& target) {
  return smooth_l1_loss(input, target, reduction, beta);
}

Tensor HuberLoss::forward(const Tensor& input, const Tensor& target) {
  return huber_loss(input, target, reduction, delta);
}

BCELoss::BCELoss(Tensor weight, Reduction reduction) : PairLoss(reduction), weight(std::move(weight)) {
  reset();
}

void BCELoss::reset() {
  // A new handle on the same storage, as CrossEntropyLoss's weight.
  if (weight.defined()) weight = register_buffer("weight", weight.detach());
}

Tensor BCELoss::forward(const Tensor& input, const Tensor& target) {
  return binary_cross_entropy(input, target, weight, reduction);
}

BCEWithLogitsLoss::BCEWithLogitsLoss(Tensor weight, Reduction reduction, Tensor pos_weight)
    : PairLoss(reduction), weight(std::move(weight)), pos_weight(std::move(pos_weight)) {
  reset();
}

void BCEWithLogitsLoss::reset() {
  if (weight.defined()) weight = register_buffer("weight", weight.detach());
  if (pos_weight.defined()) pos_weight = register_buffer("pos_weight", pos_weight.detach());
}

Tensor BCEWithLogitsLoss::forward(const Tensor& input, const Tensor& target) {
  return binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction);
}

Tensor KLDivLoss::forward(const Tensor& input, const Tensor& target) {
  return kl_div(input, target, reduction, log_target);
}

Tensor MarginRankingLoss::forward(const Tensor& input1, const Tensor& input2, const Tensor& target) {
  return margin_ranking_loss(input1, input2, target, margin, reduction);
}

Tensor CosineEmbeddingLoss::forward(const Tensor& input1, const Tensor& input2,
                                    const Tensor& target) {
  return cosine_embedding_loss(input1, input2, target, margin, reduction);
}

}  // namespace tide::nn
