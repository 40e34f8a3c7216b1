#pragma once
// The loss modules beyond CrossEntropyLoss and MSELoss (torch.nn's names and defaults): each is
// its function in tide/ops.h as a module. Class weights and BCEWithLogitsLoss's pos_weight are
// buffers, so moving the module moves them.

#include <string>

#include "tide/error.h"
#include "tide/nn/module.h"
#include "tide/ops.h"

namespace tide::nn {

/// The shared shape of the two-input losses: forward(input, target), and a one-input forward
/// that throws and says so.
template <class Derived>
class PairLoss : public Cloneable<Derived> {
 public:
  explicit PairLoss(Reduction reduction) : reduction(reduction) {}
  virtual Tensor forward(const Tensor& input, const Tensor& target) = 0;
  Tensor operator()(const Tensor& input, const Tensor& target) { return forward(input, target); }
  Tensor forward(const Tensor& /*input*/) override {
    throw Error("[nn::" + this->name() + "] a loss takes (input, target), got only an input; "
                "call criterion(output, target)");
  }
  void reset() override {}
  Reduction reduction;
};

class L1Loss : public PairLoss<L1Loss> {
 public:
  explicit L1Loss(Reduction reduction = Reduction::Mean) : PairLoss(reduction) {}
  using PairLoss::forward;
  Tensor forward(const Tensor& input, const Tensor& target) override;
};

class SmoothL1Loss : public PairLoss<SmoothL1Loss> {
 public:
  explicit SmoothL1Loss(Reduction reduction = Reduction::Mean, double beta = 1.0)
      : PairLoss(reduction), beta(beta) {}
  using PairLoss::forward;
  Tensor forward(const Tensor& input, const Tensor& target) override;
  double beta;
};

class HuberLoss : public PairLoss<HuberLoss> {
 public:
  explicit HuberLoss(Reduction reduction = Reduction::Mean, double delta = 1.0)
      : PairLoss(reduction), delta(delta) {}
  using PairLoss::forward;
  Tensor forward(const Tensor& input, const Tensor& target) override;
  double delta;
};

class BCELoss : public PairLoss<BCELoss> {
 public:
  explicit BCELoss(Tensor weight = {}, Reduction reduction = Reduction::Mean);
  using PairLoss::forward;
  Tensor forward(const Tensor& input, const Tensor& target) override;
  void reset() override;
  Tensor weight;
};

class BCEWithLogitsLoss : public PairLoss<BCEWithLogitsLoss> {
 public:
  explicit BCEWithLogitsLoss(Tensor weight = {}, Reduction reduction = Reduction::Mean,
                             Tensor pos_weight = {});
  using PairLoss::forward;
  Tensor forward(const Tensor& input, const Tensor& target) override;
  void reset() override;
  Tensor weight, pos_weight;
};

class KLDivLoss : public PairLoss<KLDivLoss> {
 public:
  explicit KLDivLoss(Reduction reduction = Reduction::Mean, bool log_target = false)
      : PairLoss(reduction), log_target(log_target) {}
  using PairLoss::forward;
  Tensor forward(const Tensor& input, const Tensor& target) override;
  bool log_target;
};

/// The margin losses take (input1, input2, target).
template <class Derived>
class TripleLoss : public Cloneable<Derived> {
 public:
  TripleLoss(double margin, Reduction reduction) : margin(margin), reduction(reduction) {}
  virtual Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target) = 0;
  Tensor operator()(const Tensor& input1, const Tensor& input2, const Tensor& target) {
    return forward(input1, input2, target);
  }
  Tensor forward(const Tensor& /*input*/) override {
    throw Error("[nn::" + this->name() + "] this loss takes (input1, input2, target), got only "
                "an input; call criterion(x1, x2, target)");
  }
  void reset() override {}
  double margin;
  Reduction reduction;
};

class MarginRankingLoss : public TripleLoss<MarginRankingLoss> {
 public:
  explicit MarginRankingLoss(double margin = 0.0, Reduction reduction = Reduction::Mean)
      : TripleLoss(margin, reduction) {}
  using TripleLoss::forward;
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target) override;
};

class CosineEmbeddingLoss : public TripleLoss<CosineEmbeddingLoss> {
 public:
  explicit CosineEmbeddingLoss(double margin = 0.0, Reduction reduction = Reduction::Mean)
      : TripleLoss(margin, reduction) {}
  using TripleLoss::forward;
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target) override;
};

}  // namespace tide::nn
