#pragma once
// SGDOptions: the hyperparameters of stochastic gradient descent, with libtorch's names and
// defaults, chainable as libtorch's: SGDOptions(0.1).momentum(0.9).nesterov(true).

namespace tide::optim {

/// Note [Optimizer options]: setters return *this so options chain, getters share the name,
/// as libtorch's TORCH_ARG (written out here: no macro tricks, STYLE.md habit 12). Setting a
/// value never checks it, because a check may involve several values set in any order
/// (nesterov needs momentum); validate() checks the whole set with torch's rules and wording
/// and is called where torch checks: when an optimizer is built, and by every fused step.
/// `maximize` is torch's Python option (libtorch has none): ascend instead of descend.
class SGDOptions {
 public:
  /// lr has no default, as in libtorch.
  explicit SGDOptions(double lr) : lr_(lr) {}

  double lr() const noexcept { return lr_; }
  SGDOptions& lr(double lr) { lr_ = lr; return *this; }
  double momentum() const noexcept { return momentum_; }
  SGDOptions& momentum(double momentum) { momentum_ = momentum; return *this; }
  double dampening() const noexcept { return dampening_; }
  SGDOptions& dampening(double dampening) { dampening_ = dampening; return *this; }
  double weight_decay() const noexcept { return weight_decay_; }
  SGDOptions& weight_decay(double weight_decay) { weight_decay_ = weight_decay; return *this; }
  bool nesterov() const noexcept { return nesterov_; }
  SGDOptions& nesterov(bool nesterov) { nesterov_ = nesterov; return *this; }
  bool maximize() const noexcept { return maximize_; }
  SGDOptions& maximize(bool maximize) { maximize_ = maximize; return *this; }

  /// Raises tide::Error with torch's message when the options are invalid: lr, momentum or
  /// weight_decay negative (or NaN), or nesterov without a positive momentum and zero dampening.
  void validate() const;

  friend bool operator==(const SGDOptions&, const SGDOptions&) = default;

 private:
  double lr_;
  double momentum_ = 0;
  double dampening_ = 0;
  double weight_decay_ = 0;
  bool nesterov_ = false;
  bool maximize_ = false;
};

}  // namespace tide::optim
