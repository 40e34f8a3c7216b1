#pragma once
// The per-element update rules of the fused optimizers: one body for the cpu loop and the GPU
// kernel (DESIGN.md decision 6), so a step on a simulated or real GPU gives the cpu's numbers.
//
// Note [Fused optimizer arithmetic]: each update is torch's chain of tensor ops for one
// parameter, done element by element in one pass, with the same operations in the same order
// and the same roundings, so trajectories follow libtorch's (tests/fixtures/optim_goldens.json):
//   - every intermediate is rounded to the compute type C (float for float32 and the 16-bit
//     floats, as torch's opmath; double for float64), as each op of the chain rounds its
//     output; state is stored in the parameter's dtype, as torch keeps it;
//   - hyperparameters are turned into C once, on the host, from the double values torch would
//     pass as Scalars (`1 - dampening`, `-lr`, `lr / bias_correction1` computed in double);
//   - the expression forms are those of ATen's cpu kernels: add(a, b, alpha) = a + alpha * b,
//     addcmul(s, a, b, v) = s + v * a * b, addcdiv(s, a, b, v) = s + v * a / b;
//   - Adam is libtorch's form (exp_avg.mul_(beta1).add_(grad, 1 - beta1)); torch's Python
//     single-tensor path writes the same average as a lerp, which can differ in the last bit.
// 16-bit floats are computed in float from load to store, as torch's fused kernels (fused=True)
// do, where torch's chain of ops would round every intermediate to the 16-bit dtype.
// ATen's vectorized cpu loops may fuse a multiply-add where these loops round twice (and nvcc
// is told not to fuse, --fmad=false), so agreement with libtorch is within float tolerance,
// while cpu, simulated and real GPUs agree with each other (bit for bit on simulated GPUs).

#include <cmath>
#include <cstdint>

#include "kernels/convert.h"
#include "kernels/functors.h"
#include "tide/macros.h"

namespace tide::kernels {

/// One SGD step's hyperparameters as the kernels take them (plain values: the optim layer
/// above fills them from SGDOptions).
struct SgdHyper {
  double lr = 0;
  double momentum = 0;
  double dampening = 0;
  double weight_decay = 0;
  bool nesterov = false;
  bool maximize = false;
  /// The momentum buffer holds nothing yet: it becomes the gradient, as torch's
  /// `buf = clone(grad)`, instead of buf * momentum + (1 - dampening) * grad.
  bool first_step = false;
};

/// torch's SGD for one element (torch/optim/sgd.py, _single_tensor_sgd; libtorch's SGD::step).
template <class C>
struct SgdUpdate {
  C neg_lr, momentum, one_minus_dampening, weight_decay;
  bool use_momentum, use_weight_decay, nesterov, maximize, first_step;

  /// Host only: the hyperparameters in C, rounded from torch's double Scalars.
  static SgdUpdate from(const SgdHyper& h) {
    return SgdUpdate{static_cast<C>(-h.lr),         static_cast<C>(h.momentum),
                     static_cast<C>(1 - h.dampening), static_cast<C>(h.weight_decay),
                     h.momentum != 0,               h.weight_decay != 0,
                     h.nesterov,                    h.maximize,
                     h.first_step};
  }

  /// The new value of `param`; `buf` (the momentum buffer, used only with momentum) is
  /// updated in place.
  TIDE_HOST_DEVICE C operator()(C param, C grad, C& buf) const {
    C d_p = maximize ? -grad : grad;
    if (use_weight_decay) d_p = d_p + weight_decay * param;
    if (use_momentum) {
      buf = first_step ? d_p : buf * momentum + one_minus_dampening * d_p;
      d_p = nesterov ? d_p + momentum * buf : buf;
    }
    return param + neg_lr * d_p;
  }
};

/// One Adam step's hyperparameters as the kernels take them; `step` is this update's number
/// for the parameter (1 on its first step), which the bias corrections need.
struct AdamHyper {
  double lr = 0;
  double beta1 = 0;
  double beta2 = 0;
  double eps = 0;
  double weight_decay = 0;
  bool amsgrad = false;
  bool maximize = false;
  int64_t step = 1;
  /// AdamW: weight decay shrinks the parameter (param *= 1 - lr * weight_decay) before the
  /// update instead of adding weight_decay * param to the gradient.
  bool decoupled_weight_decay = false;
};

/// torch's Adam for one element (libtorch's Adam::step; torch/optim/adam.py, _single_tensor_adam)
/// and, with decoupled weight decay, AdamW's (torch/optim/adamw.py, _single_tensor_adamw).
template <class C>
struct AdamUpdate {
  C beta1, one_minus_beta1, beta2, one_minus_beta2, bias_correction2_sqrt, eps, neg_step_size,
      weight_decay, decay_factor;
  bool use_weight_decay, amsgrad, maximize, decoupled;

  /// Host only: the bias corrections in double, as torch computes them from the step count
  /// (1 - beta^step, lr / bias_correction1, sqrt(bias_correction2)), then rounded to C.
  static AdamUpdate from(const AdamHyper& h) {
    const auto step = static_cast<double>(h.step);
    const double bias_correction1 = 1 - std::pow(h.beta1, step);
    const double bias_correction2 = 1 - std::pow(h.beta2, step);
    return AdamUpdate{static_cast<C>(h.beta1),
                      static_cast<C>(1 - h.beta1),
                      static_cast<C>(h.beta2),
                      static_cast<C>(1 - h.beta2),
                      static_cast<C>(std::sqrt(bias_correction2)),
                      static_cast<C>(h.eps),
                      static_cast<C>(-(h.lr / bias_correction1)),
                      static_cast<C>(h.weight_decay),
                      static_cast<C>(1 - h.lr * h.weight_decay),
                      h.weight_decay != 0,
                      h.amsgrad,
                      h.maximize,
                      h.decoupled_weight_decay};
  }

  /// The new value of `param`; the running averages (and, with amsgrad, their running
  /// maximum) are updated in place. max_exp_avg_sq is untouched without amsgrad.
  TIDE_HOST_DEVICE C operator()(C param, C grad, C& exp_avg, C& exp_avg_sq,
                                C& max_exp_avg_sq) const {
    C g = maximize ? -grad : grad;
    if (decoupled) {
      param = param * decay_factor;  // AdamW's param.mul_(1 - lr * weight_decay), always made
    } else if (use_weight_decay) {
      g = g + weight_decay * param;
    }
    exp_avg = exp_avg * beta1 + one_minus_beta1 * g;
    exp_avg_sq = exp_avg_sq * beta2 + one_minus_beta2 * g * g;
    C second = exp_avg_sq;
    if (amsgrad) {
      max_exp_avg_sq = MaximumOp<C>{}(max_exp_avg_sq, exp_avg_sq);  // torch.maximum: NaN wins
      second = max_exp_avg_sq;
    }
    const C denom = std::sqrt(second) / bias_correction2_sqrt + eps;
    return param + neg_step_size * exp_avg / denom;
  }
};

/// One RMSprop step's hyperparameters as the kernels take them.
struct RmspropHyper {
  double lr = 0;
  double alpha = 0;
  double eps = 0;
  double weight_decay = 0;
  double momentum = 0;
  bool centered = false;
  bool maximize = false;
};

/// torch's RMSprop for one element (torch/optim/rmsprop.py, _single_tensor_rmsprop).
template <class C>
struct RmspropUpdate {
  C neg_lr, alpha, one_minus_alpha, eps, weight_decay, momentum;
  bool use_weight_decay, use_momentum, centered, maximize;

  static RmspropUpdate from(const RmspropHyper& h) {
    return RmspropUpdate{static_cast<C>(-h.lr),       static_cast<C>(h.alpha),
                         static_cast<C>(1 - h.alpha), static_cast<C>(h.eps),
                         static_cast<C>(h.weight_decay), static_cast<C>(h.momentum),
                         h.weight_decay != 0,         h.momentum > 0,
                         h.centered,                  h.maximize};
  }

  /// The new value of `param`; the running average of squared gradients and, when centered,
  /// of gradients, and with momentum the buffer, are updated in place (the unused ones are
  /// untouched).
  TIDE_HOST_DEVICE C operator()(C param, C grad, C& square_avg, C& grad_avg, C& buf) const {
    C g = maximize ? -grad : grad;
    if (use_weight_decay) g = g + weight_decay * param;
    square_avg = square_avg * alpha + one_minus_alpha * g * g;
    C avg;
    if (centered) {
      grad_avg = grad_avg * alpha + one_minus_alpha * g;
      avg = std::sqrt(square_avg + C(-1) * grad_avg * grad_avg);  // addcmul(value=-1).sqrt_()
    } else {
      avg = std::sqrt(square_avg);
    }
    avg = avg + eps;
    if (use_momentum) {
      buf = buf * momentum + g / avg;  // addcdiv_(grad, avg), value 1
      return param + neg_lr * buf;
    }
    return param + neg_lr * g / avg;
  }
};

/// One Adagrad step's hyperparameters as the kernels take them; `step` is this update's
/// number for the parameter (1 on its first step), which the learning-rate decay needs.
struct AdagradHyper {
  double lr = 0;
  double lr_decay = 0;
  double weight_decay = 0;
  double eps = 0;
  bool maximize = false;
  int64_t step = 1;
};

/// torch's Adagrad for one element (torch/optim/adagrad.py, _single_tensor_adagrad; dense
/// gradients).
template <class C>
struct AdagradUpdate {
  C neg_clr, weight_decay, eps;
  bool use_weight_decay, maximize;

  /// Host only: the decayed learning rate in double, lr / (1 + (step - 1) * lr_decay).
  static AdagradUpdate from(const AdagradHyper& h) {
    const double clr = h.lr / (1 + static_cast<double>(h.step - 1) * h.lr_decay);
    return AdagradUpdate{static_cast<C>(-clr), static_cast<C>(h.weight_decay),
                         static_cast<C>(h.eps), h.weight_decay != 0, h.maximize};
  }

  /// The new value of `param`; the running sum of squared gradients is updated in place.
  TIDE_HOST_DEVICE C operator()(C param, C grad, C& sum) const {
    C g = maximize ? -grad : grad;
    if (use_weight_decay) g = g + weight_decay * param;
    sum = sum + g * g;  // addcmul_(grad, grad, value=1)
    const C std_dev = std::sqrt(sum) + eps;
    return param + neg_clr * g / std_dev;
  }
};

/// Element i of an RMSprop step as the cpu loop and the GPU kernel both run it: the operands
/// loaded in the compute type, updated, stored back; an unused state array is nullptr.
template <class T>
TIDE_HOST_DEVICE void rmsprop_element(int64_t i, T* param, const T* grad, T* square_avg,
                                      T* grad_avg, T* buf,
                                      const RmspropUpdate<compute_t<T>>& update) {
  using C = compute_t<T>;
  C s = convert<C>(square_avg[i]);
  C a = grad_avg != nullptr ? convert<C>(grad_avg[i]) : C(0);
  C b = buf != nullptr ? convert<C>(buf[i]) : C(0);
  param[i] = convert<T>(update(convert<C>(param[i]), convert<C>(grad[i]), s, a, b));
  square_avg[i] = convert<T>(s);
  if (grad_avg != nullptr) grad_avg[i] = convert<T>(a);
  if (buf != nullptr) buf[i] = convert<T>(b);
}

/// Element i of an Adagrad step, shared as rmsprop_element is.
template <class T>
TIDE_HOST_DEVICE void adagrad_element(int64_t i, T* param, const T* grad, T* sum,
                                      const AdagradUpdate<compute_t<T>>& update) {
  using C = compute_t<T>;
  C s = convert<C>(sum[i]);
  param[i] = convert<T>(update(convert<C>(param[i]), convert<C>(grad[i]), s));
  sum[i] = convert<T>(s);
}

}  // namespace tide::kernels
