#include "tide/nn/normalization.h"

#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn {
namespace {

/// The affine parameters' start (weight 1, bias 0), when the module has them.
void reset_affine(bool has_affine, Tensor& weight, Tensor& bias) {
  if (!has_affine) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

}  // namespace

LayerNorm::LayerNorm(std::vector<int64_t> normalized_shape, double eps, bool elementwise_affine)
    : normalized_shape(std::move(normalized_shape)),
      eps(eps),
      elementwise_affine(elementwise_affine) {
  for (int64_t size : this->normalized_shape) {
    TIDE_CHECK(size > 0, "[nn::LayerNorm] expected positive sizes in normalized_shape, found ",
               size, "; pass the sizes of the trailing dims to normalize");
  }
  reset();
  reset_parameters();
}

void LayerNorm::reset() {
  weight = elementwise_affine ? register_parameter("weight", empty(normalized_shape)) : Tensor();
  bias = elementwise_affine ? register_parameter("bias", empty(normalized_shape)) : Tensor();
}

void LayerNorm::reset_parameters() { reset_affine(elementwise_affine, weight, bias); }

Tensor LayerNorm::forward(const Tensor& input) {
  return layer_norm(input, normalized_shape, weight, bias, eps);
}

GroupNorm::GroupNorm(int64_t num_groups, int64_t num_channels, double eps, bool affine)
    : num_groups(num_groups), num_channels(num_channels), eps(eps), affine(affine) {
  TIDE_CHECK(num_groups > 0 && num_channels % num_groups == 0,
             "[nn::GroupNorm] expected num_channels divisible by a positive num_groups, found "
             "num_channels ", num_channels, " and num_groups ", num_groups,
             "; num_channels must be divisible by num_groups");
  reset();
  reset_parameters();
}

void GroupNorm::reset() {
  weight = affine ? register_parameter("weight", empty({num_channels})) : Tensor();
  bias = affine ? register_parameter("bias", empty({num_channels})) : Tensor();
}

void GroupNorm::reset_parameters() { reset_affine(affine, weight, bias); }

Tensor GroupNorm::forward(const Tensor& input) {
  return group_norm(input, num_groups, weight, bias, eps);
}

}  // namespace tide::nn
