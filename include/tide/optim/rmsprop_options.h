#pragma once
// RMSpropOptions: the hyperparameters of RMSprop, with libtorch's names and defaults, chainable
// as libtorch's: RMSpropOptions(1e-2).momentum(0.9).centered(true) (Note [Optimizer options]
// in sgd_options.h).

namespace tide::optim {

class RMSpropOptions {
 public:
  explicit RMSpropOptions(double lr = 1e-2) : lr_(lr) {}

  double lr() const noexcept { return lr_; }
  RMSpropOptions& lr(double lr) { lr_ = lr; return *this; }
  double alpha() const noexcept { return alpha_; }
  RMSpropOptions& alpha(double alpha) { alpha_ = alpha; return *this; }
  double eps() const noexcept { return eps_; }
  RMSpropOptions& eps(double eps) { eps_ = eps; return *this; }
  double weight_decay() const noexcept { return weight_decay_; }
  RMSpropOptions& weight_decay(double weight_decay) { weight_decay_ = weight_decay; return *this; }
  double momentum() const noexcept { return momentum_; }
  RMSpropOptions& momentum(double momentum) { momentum_ = momentum; return *this; }
  bool centered() const noexcept { return centered_; }
  RMSpropOptions& centered(bool centered) { centered_ = centered; return *this; }
  /// torch's Python option (libtorch has none): ascend instead of descend.
  bool maximize() const noexcept { return maximize_; }
  RMSpropOptions& maximize(bool maximize) { maximize_ = maximize; return *this; }

  /// Raises tide::Error with torch's message when the options are invalid: lr, eps, momentum,
  /// weight_decay or alpha negative (or NaN).
  void validate() const;

  friend bool operator==(const RMSpropOptions&, const RMSpropOptions&) = default;

 private:
  double lr_;
  double alpha_ = 0.99;
  double eps_ = 1e-8;
  double weight_decay_ = 0;
  double momentum_ = 0;
  bool centered_ = false;
  bool maximize_ = false;
};

}  // namespace tide::optim
