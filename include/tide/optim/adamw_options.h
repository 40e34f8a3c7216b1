#pragma once
// AdamWOptions: the hyperparameters of AdamW, with libtorch's names and defaults (weight_decay
// 1e-2), chainable as libtorch's (Note [Optimizer options] in sgd_options.h).

#include <tuple>

namespace tide::optim {

class AdamWOptions {
 public:
  using betas_t = std::tuple<double, double>;

  explicit AdamWOptions(double lr = 1e-3) : lr_(lr) {}

  double lr() const noexcept { return lr_; }
  AdamWOptions& lr(double lr) { lr_ = lr; return *this; }
  const betas_t& betas() const noexcept { return betas_; }
  AdamWOptions& betas(const betas_t& betas) { betas_ = betas; return *this; }
  double eps() const noexcept { return eps_; }
  AdamWOptions& eps(double eps) { eps_ = eps; return *this; }
  double weight_decay() const noexcept { return weight_decay_; }
  AdamWOptions& weight_decay(double weight_decay) { weight_decay_ = weight_decay; return *this; }
  bool amsgrad() const noexcept { return amsgrad_; }
  AdamWOptions& amsgrad(bool amsgrad) { amsgrad_ = amsgrad; return *this; }
  /// torch's Python option (libtorch has none): ascend instead of descend.
  bool maximize() const noexcept { return maximize_; }
  AdamWOptions& maximize(bool maximize) { maximize_ = maximize; return *this; }

  /// Raises tide::Error with torch's message when the options are invalid: lr, eps or
  /// weight_decay negative (or NaN), a beta outside [0, 1).
  void validate() const;

  friend bool operator==(const AdamWOptions&, const AdamWOptions&) = default;

 private:
  double lr_;
  betas_t betas_{0.9, 0.999};
  double eps_ = 1e-8;
  double weight_decay_ = 1e-2;
  bool amsgrad_ = false;
  bool maximize_ = false;
};

}  // namespace tide::optim
