// Losses (torch.nn.functional): nll_loss with its own kernels, and the compositions of table
// ops (Note [Losses as compositions] in ops/ops.yaml): cross_entropy (class indices or
// probabilities, label smoothing), mse, l1, smooth_l1, huber, binary_cross_entropy (with and
// without logits), kl_div and the two margin losses. Formulas and checks follow torch 1.13's
// aten/src/ATen/native/Loss.cpp and LossNLL.cpp.

#include <vector>

#include "kernels/stubs.h"
#include "kernels/cpu/loss_kernels.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

/// The shape checks nll_loss and cross_entropy share, in torch's order and wording.
void check_loss_shapes(const Tensor& input, const Tensor& target, const char* where) {
  TIDE_CHECK(input.dim() == 1 || input.dim() == 2, "[", where,
             "] input tensor should be 1D or 2D, but got ", input.dim(), "D input of shape ",
             detail::shape_str(input.shape()),
             "; pass (N, C) scores for a batch or (C,) for one sample");
  TIDE_CHECK(target.dim() <= 1, "[", where,
             "] 0D or 1D target tensor expected, multi-target not supported (target has shape ",
             detail::shape_str(target.shape()), ")");
  if (input.dim() == 1) {
    TIDE_CHECK(target.dim() == 0, "[", where, "] a 1D input of shape ",
               detail::shape_str(input.shape()),
               " is one sample and needs a 0-dim target (one class index), but target has shape ",
               detail::shape_str(target.shape()));
  } else {
    TIDE_CHECK(target.dim() == 1 && target.shape()[0] == input.shape()[0], "[", where,
               "] Expected input batch_size (", input.shape()[0], ") to match target batch_size (",
               target.dim() == 1 ? target.shape()[0] : 0,
               "); a 2D input (N, C) needs a 1D target of N class indices, but target has shape ",
               detail::shape_str(target.shape()));
  }
}

void check_target_dtype(const Tensor& target, const char* where) {
  TIDE_CHECK(target.dtype() == kInt64 || target.dtype() == kUInt8, "[", where,
             "] expected scalar type Long but found ", detail::torch_type_name(target.dtype()),
             " for target; pass class indices as int64 (target.to(tide::kInt64))");
}

/// torch's apply_loss_reduction.
Tensor reduce_loss(const Tensor& loss, Reduction reduction) {
  switch (reduction) {
    case Reduction::None: return loss;
    case Reduction::Sum: return sum(loss);
    case Reduction::Mean: break;
  }
  return mean(loss);
}

void check_floating(const Tensor& input, const Tensor& target, const char* where) {
  detail::check_defined(input, where, "input");
  detail::check_defined(target, where, "target");
  TIDE_CHECK(input.is_floating_point() && target.is_floating_point(), "[", where,
             "] expected floating-point input and target, got ",
             detail::torch_type_name(input.dtype()), " and ",
             detail::torch_type_name(target.dtype()), "; convert them with .to(tide::kFloat32)");
}

/// log(x) clamped to >= -100 as torch's binary_cross_entropy, with a gradient that stays finite
/// where x is 0 (the log runs on 1 there; where() routes the gradient away from it).
Tensor clamped_log(const Tensor& x) {
  const Tensor positive = gt(x, Scalar(0));
  return clamp(where(positive, log(where(positive, x, Scalar(1))), Scalar(-100)), Scalar(-100),
               std::nullopt);
}

}  // namespace

namespace detail {

Tensor plain_nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight,
                      Reduction reduction, int64_t ignore_index) {
  detail::check_defined(input, "nll_loss", "input");
  detail::check_defined(target, "nll_loss", "target");
  const Device device = detail::same_device(
      {{"self", &input}, {"target", &target}, {"weight", &weight}}, "nll_loss");
  check_loss_shapes(input, target, "nll_loss");
  check_target_dtype(target, "nll_loss");
  TIDE_CHECK(input.is_floating_point(), "[nll_loss] \"nll_loss_out_frame\" not implemented for '",
             detail::torch_type_name(input.dtype()),
             "'; nll_loss expects floating point log-probabilities (e.g. from log_softmax)");
  const int64_t classes = input.shape()[input.dim() - 1];
  if (weight.defined()) {
    TIDE_CHECK(weight.dim() == 1 && weight.numel() == classes,
               "[nll_loss] weight tensor should be defined either for all ", classes,
               " classes or no classes but got weight tensor of shape: ",
               detail::shape_str(weight.shape()));
    TIDE_CHECK(weight.dtype() == input.dtype(), "[nll_loss] expected scalar type ",
               detail::torch_type_name(input.dtype()), " but found ",
               detail::torch_type_name(weight.dtype()),
               " for weight; weight must have the input's dtype (weight.to(input.dtype()))");
  }
  const Tensor x = (input.dim() == 1 ? input.unsqueeze(0) : input).contiguous();
  const Tensor t = (target.dim() == 0 ? target.unsqueeze(0) : target).contiguous();
  const Tensor w = weight.defined() ? weight.contiguous() : Tensor();
  const kernels::LossReduction r = reduction == Reduction::None  ? kernels::LossReduction::None
                                   : reduction == Reduction::Sum ? kernels::LossReduction::Sum
                                                                 : kernels::LossReduction::Mean;
  Tensor out = detail::make_empty(reduction == Reduction::None ? target.shape() : DimVector{},
                                  input.dtype(), device);
  detail::run_kernel(device, "nll_loss", kernels::nll_loss_stub, out, x, t, w, r, ignore_index);
  return out;
}

namespace {

/// weight (C,) viewed to broadcast along `class_dim` of a `dims`-dim tensor.
Tensor weight_along(const Tensor& weight, int64_t dims, int64_t class_dim) {
  std::vector<int64_t> shape(static_cast<size_t>(dims), 1);
  shape[static_cast<size_t>(class_dim)] = weight.numel();
  return weight.view(shape);
}

/// torch's cross_entropy_loss_prob_target: -sum over the class dim of w_c p_c log q_c, the
/// mean dividing by the number of samples (not by the weights, unlike class indices).
Tensor cross_entropy_probabilities(const Tensor& logp, const Tensor& target, const Tensor& weight,
                                   Reduction reduction, double label_smoothing, int64_t class_dim) {
  const int64_t classes = logp.shape()[class_dim];
  const Tensor p = label_smoothing > 0.0
                       ? target * Scalar(1.0 - label_smoothing) +
                             Scalar(label_smoothing / static_cast<double>(classes))
                       : target;
  Tensor terms = logp * p;
  if (weight.defined()) terms = terms * weight_along(weight, logp.dim(), class_dim);
  switch (reduction) {
    case Reduction::None: return -terms.sum(class_dim);
    case Reduction::Sum: return -sum(terms);
    case Reduction::Mean: break;
  }
  // An empty input gives 0 / 0 = nan, as torch.
  const int64_t samples = classes == 0 ? 0 : logp.numel() / classes;
  return -sum(terms) / Scalar(samples);
}

/// torch's cross_entropy_loss_label_smoothing for class indices, on (M, C) log-probabilities
/// and (M,) targets: (1 - s) nll + s / C times the smoothing term, which ignores the same
/// targets and (for the mean) divides by the same weights as nll_loss.
Tensor smoothed_nll(const Tensor& logp, const Tensor& target, const Tensor& weight,
                    Reduction reduction, int64_t ignore_index, double label_smoothing) {
  const Tensor nll = nll_loss(logp, target, weight, reduction, ignore_index);
  const Tensor ignored = eq(target, Scalar(ignore_index));
  Tensor smooth = -(weight.defined() ? logp * weight : logp).sum(1);
  smooth = where(ignored, Scalar(0.0), smooth);
  Tensor reduced;
  switch (reduction) {
    case Reduction::None: reduced = smooth; break;
    case Reduction::Sum: reduced = sum(smooth); break;
    case Reduction::Mean:
      if (weight.defined()) {
        const Tensor picked = index_select(weight, 0, where(ignored, Scalar(0), target));
        reduced = sum(smooth) / sum(where(ignored, Scalar(0.0), picked));
      } else {
        reduced = sum(smooth) / sum(ne(target, Scalar(ignore_index)));
      }
      break;
  }
  const auto classes = static_cast<double>(logp.shape()[1]);
  return nll * Scalar(1.0 - label_smoothing) + reduced * Scalar(label_smoothing / classes);
}

}  // namespace

Tensor plain_cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight,
                           Reduction reduction, int64_t ignore_index, double label_smoothing) {
  check_defined(input, "cross_entropy", "input");
  check_defined(target, "cross_entropy", "target");
  same_device({{"self", &input}, {"target", &target}, {"weight", &weight}}, "cross_entropy");
  TIDE_CHECK(label_smoothing >= 0.0 && label_smoothing <= 1.0,
             "[cross_entropy] label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing,
             "; pass a value in [0, 1]");
  TIDE_CHECK(input.dim() >= 1, "[cross_entropy] input tensor should be at least 1D, but got 0D; "
             "pass (N, C, ...) scores for a batch or (C,) for one sample");
  // torch: the class dim is 1, or 0 for an unbatched (C,) input.
  const int64_t class_dim = input.dim() == 1 ? 0 : 1;
  const int64_t classes = input.shape()[class_dim];
  if (weight.defined()) {
    TIDE_CHECK(weight.dim() == 1 && weight.numel() == classes,
               "[cross_entropy] weight tensor should be defined either for all ", classes,
               " classes or no classes but got weight tensor of shape: ",
               shape_str(weight.shape()));
  }
  // torch: a target of the input's own shape holds class probabilities.
  if (target.shape() == input.shape()) {
    TIDE_CHECK(target.is_floating_point(),
               "[cross_entropy] Expected floating point type for target with class "
               "probabilities, got ", torch_type_name(target.dtype()),
               "; class indices have the input's shape without the class dim");
    TIDE_CHECK(ignore_index < 0, "[cross_entropy] ignore_index is not supported for floating "
               "point target; leave ignore_index at its default (-100)");
    return cross_entropy_probabilities(log_softmax(input, class_dim), target, weight, reduction,
                                       label_smoothing, class_dim);
  }
  Tensor logp = log_softmax(input, class_dim);
  Tensor t = target;
  if (input.dim() > 2) {
    // (N, C, d1, ...) scores and (N, d1, ...) targets: the classes moved last and every
    // position made a row, so nll_loss's (M, C) kernel serves (torch's nll_loss2d/nd).
    DimVector expected;
    for (int64_t d = 0; d < input.dim(); ++d) {
      if (d != 1) expected.push_back(input.shape()[d]);
    }
    TIDE_CHECK(target.shape() == expected, "[cross_entropy] Expected target size ",
               shape_str(expected), ", got ", shape_str(target.shape()),
               "; targets hold one class index per position of the input without its class dim");
    check_target_dtype(target, "cross_entropy");
    std::vector<int64_t> order{0};
    for (int64_t d = 2; d < input.dim(); ++d) order.push_back(d);
    order.push_back(1);
    logp = logp.permute(order).reshape({-1, classes});
    t = target.reshape({-1});
  } else {
    check_loss_shapes(input, target, "cross_entropy");
    check_target_dtype(target, "cross_entropy");
  }
  Tensor loss;
  if (label_smoothing > 0.0) {
    const bool unbatched = logp.dim() == 1;
    loss = smoothed_nll(unbatched ? logp.unsqueeze(0) : logp, t.reshape({-1}), weight,
                        reduction, ignore_index, label_smoothing);
    if (unbatched && reduction == Reduction::None) loss = loss.reshape({});
  } else {
    loss = nll_loss(logp, t, weight, reduction, ignore_index);
  }
  if (input.dim() > 2 && reduction == Reduction::None) {
    std::vector<int64_t> shape(target.shape().begin(), target.shape().end());
    loss = loss.reshape(shape);
  }
  return loss;
}

Tensor plain_mse_loss(const Tensor& input, const Tensor& target, Reduction reduction) {
  check_floating(input, target, "mse_loss");
  const Tensor diff = sub(input, target);
  return reduce_loss(mul(diff, diff), reduction);
}

Tensor plain_l1_loss(const Tensor& input, const Tensor& target, Reduction reduction) {
  check_floating(input, target, "l1_loss");
  return reduce_loss(abs(sub(input, target)), reduction);
}

Tensor plain_smooth_l1_loss(const Tensor& input, const Tensor& target, Reduction reduction,
                            double beta) {
  check_floating(input, target, "smooth_l1_loss");
  TIDE_CHECK(beta >= 0, "[smooth_l1_loss] smooth_l1_loss does not support negative values for "
             "beta. (got ", beta, "); pass beta >= 0");
  if (beta == 0.0) return plain_l1_loss(input, target, reduction);
  const Tensor z = abs(sub(input, target));
  return reduce_loss(where(lt(z, Scalar(beta)), z * z * Scalar(0.5 / beta), z - Scalar(0.5 * beta)),
                     reduction);
}

Tensor plain_huber_loss(const Tensor& input, const Tensor& target, Reduction reduction,
                        double delta) {
  check_floating(input, target, "huber_loss");
  TIDE_CHECK(delta > 0, "[huber_loss] huber_loss does not support non-positive values for "
             "delta. (got ", delta, "); pass delta > 0");
  const Tensor z = abs(sub(input, target));
  return reduce_loss(
      where(lt(z, Scalar(delta)), z * z * Scalar(0.5), (z - Scalar(0.5 * delta)) * Scalar(delta)),
      reduction);
}

Tensor plain_binary_cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight,
                                  Reduction reduction) {
  check_floating(input, target, "binary_cross_entropy");
  TIDE_CHECK(target.shape() == input.shape(), "[binary_cross_entropy] Using a target size (",
             shape_str(target.shape()), ") that is different to the input size (",
             shape_str(input.shape()), ") is deprecated. Please ensure they have the same size.");
  // torch's cpu kernel checks every element; its CUDA kernel asserts on the device. Here the
  // check runs where reading the result costs no device synchronization: on the cpu.
  if (input.is_cpu()) {
    TIDE_CHECK((sum(lt(input, Scalar(0))) + sum(gt(input, Scalar(1)))).item<int64_t>() == 0,
               "[binary_cross_entropy] all elements of input should be between 0 and 1; "
               "apply sigmoid first, or use binary_cross_entropy_with_logits on the scores");
  }
  Tensor loss = -(target * clamped_log(input) + (Scalar(1) - target) * clamped_log(Scalar(1) - input));
  if (weight.defined()) loss = loss * weight;
  return reduce_loss(loss, reduction);
}

Tensor plain_binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                              const Tensor& weight, const Tensor& pos_weight,
                                              Reduction reduction) {
  check_floating(input, target, "binary_cross_entropy_with_logits");
  TIDE_CHECK(target.shape() == input.shape(), "[binary_cross_entropy_with_logits] Target size (",
             shape_str(target.shape()), ") must be the same as input size (",
             shape_str(input.shape()), ")");
  // torch's stable form: with m = max(-x, 0), log(1 + e^-x) = log(e^-m + e^(-x-m)) + m.
  const Tensor m = clamp(-input, Scalar(0), std::nullopt);
  const Tensor softplus_neg = log(exp(-m) + exp(-input - m)) + m;
  Tensor loss;
  if (pos_weight.defined()) {
    const Tensor log_weight = (pos_weight - Scalar(1)) * target + Scalar(1);
    loss = (Scalar(1) - target) * input + log_weight * softplus_neg;
  } else {
    loss = (Scalar(1) - target) * input + softplus_neg;
  }
  if (weight.defined()) loss = loss * weight;
  return reduce_loss(loss, reduction);
}

Tensor plain_kl_div(const Tensor& input, const Tensor& target, Reduction reduction,
                    bool log_target) {
  check_floating(input, target, "kl_div");
  if (log_target) return reduce_loss(exp(target) * (target - input), reduction);
  // xlogy(t, t): 0 where t is 0 (the log runs on 1 there, so its gradient stays finite).
  const Tensor zero = eq(target, Scalar(0));
  const Tensor t_log_t = where(zero, Scalar(0.0), target * log(where(zero, Scalar(1.0), target)));
  return reduce_loss(t_log_t - target * input, reduction);
}

Tensor plain_margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                 double margin, Reduction reduction) {
  check_defined(target, "margin_ranking_loss", "target");
  const Tensor loss = -target * (input1 - input2) + Scalar(margin);
  return reduce_loss(clamp(loss, Scalar(0), std::nullopt), reduction);
}

Tensor plain_cosine_embedding_loss(const Tensor& input1, const Tensor& input2,
                                   const Tensor& target, double margin, Reduction reduction) {
  check_defined(input1, "cosine_embedding_loss", "input1");
  check_defined(input2, "cosine_embedding_loss", "input2");
  check_defined(target, "cosine_embedding_loss", "target");
  const int64_t dims = target.dim();
  TIDE_CHECK(dims == 0 || dims == 1, "[cosine_embedding_loss] 0D or 1D target tensor expected, "
             "multi-target not supported (target has shape ", shape_str(target.shape()), ")");
  TIDE_CHECK(input1.dim() == dims + 1 && input2.dim() == dims + 1, "[cosine_embedding_loss] ",
             dims, "D target tensor expects ", dims + 1,
             "D input tensors, but found inputs with sizes ", shape_str(input1.shape()), " and ",
             shape_str(input2.shape()), ".");
  constexpr double kEpsilon = 1e-12;  // torch's, added to each squared magnitude
  const Tensor prod_sum = (input1 * input2).sum(dims);
  const Tensor mag1 = (input1 * input1).sum(dims) + Scalar(kEpsilon);
  const Tensor mag2 = (input2 * input2).sum(dims) + Scalar(kEpsilon);
  const Tensor cos = prod_sum / sqrt(mag1 * mag2);
  const Tensor pos = where(eq(target, Scalar(1)), Scalar(1) - cos, Scalar(0.0));
  const Tensor neg =
      where(eq(target, Scalar(-1)), clamp(cos - Scalar(margin), Scalar(0), std::nullopt),
            Scalar(0.0));
  return reduce_loss(pos + neg, reduction);
}

}  // namespace detail

}  // namespace tide
