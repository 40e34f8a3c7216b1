#pragma once
// AdagradOptions: the hyperparameters of Adagrad, with libtorch's names and defaults,
// chainable as libtorch's: AdagradOptions(1e-2).lr_decay(1e-3) (Note [Optimizer options] in
// sgd_options.h).

namespace tide::optim {

class AdagradOptions {
 public:
  explicit AdagradOptions(double lr = 1e-2) : lr_(lr) {}

  double lr() const noexcept { return lr_; }
  AdagradOptions& lr(double lr) { lr_ = lr; return *this; }
  double lr_decay() const noexcept { return lr_decay_; }
  AdagradOptions& lr_decay(double lr_decay) { lr_decay_ = lr_decay; return *this; }
  double weight_decay() const noexcept { return weight_decay_; }
  AdagradOptions& weight_decay(double weight_decay) { weight_decay_ = weight_decay; return *this; }
  /// The value every running sum starts from (read once, when the optimizer is built).
  double initial_accumulator_value() const noexcept { return initial_accumulator_value_; }
  AdagradOptions& initial_accumulator_value(double value) {
    initial_accumulator_value_ = value;
    return *this;
  }
  double eps() const noexcept { return eps_; }
  AdagradOptions& eps(double eps) { eps_ = eps; return *this; }
  /// torch's Python option (libtorch has none): ascend instead of descend.
  bool maximize() const noexcept { return maximize_; }
  AdagradOptions& maximize(bool maximize) { maximize_ = maximize; return *this; }

  /// Raises tide::Error with torch's message when the options are invalid: lr, lr_decay,
  /// weight_decay, initial_accumulator_value or eps negative (or NaN).
  void validate() const;

  friend bool operator==(const AdagradOptions&, const AdagradOptions&) = default;

 private:
  double lr_;
  double lr_decay_ = 0;
  double weight_decay_ = 0;
  double initial_accumulator_value_ = 0;
  double eps_ = 1e-10;
  bool maximize_ = false;
};

}  // namespace tide::optim
