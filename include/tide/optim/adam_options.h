#pragma once
// AdamOptions: the hyperparameters of Adam, with libtorch's names and defaults, chainable as
// libtorch's: AdamOptions(1e-3).betas({0.9, 0.98}).amsgrad(true) (Note [Optimizer options]
// in sgd_options.h).

#include <tuple>

namespace tide::optim {

class AdamOptions {
 public:
  using betas_t = std::tuple<double, double>;

  explicit AdamOptions(double lr = 1e-3) : lr_(lr) {}

  double lr() const noexcept { return lr_; }
  AdamOptions& lr(double lr) { lr_ = lr; return *this; }
  const betas_t& betas() const noexcept { return betas_; }
  AdamOptions& betas(const betas_t& betas) { betas_ = betas; return *this; }
  double eps() const noexcept { return eps_; }
  AdamOptions& eps(double eps) { eps_ = eps; return *this; }
  double weight_decay() const noexcept { return weight_decay_; }
  AdamOptions& weight_decay(double weight_decay) { weight_decay_ = weight_decay; return *this; }
  bool amsgrad() const noexcept { return amsgrad_; }
  AdamOptions& amsgrad(bool amsgrad) { amsgrad_ = amsgrad; return *this; }
  /// torch's Python option (libtorch has none): ascend instead of descend.
  bool maximize() const noexcept { return maximize_; }
  AdamOptions& maximize(bool maximize) { maximize_ = maximize; return *this; }

  /// Raises tide::Error with torch's message when the options are invalid: lr, eps or
  /// weight_decay negative (or NaN), a beta outside [0, 1).
  void validate() const;

  friend bool operator==(const AdamOptions&, const AdamOptions&) = default;

 private:
  double lr_;
  betas_t betas_{0.9, 0.999};
  double eps_ = 1e-8;
  double weight_decay_ = 0;
  bool amsgrad_ = false;
  bool maximize_ = false;
};

}  // namespace tide::optim
