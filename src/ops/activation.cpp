// Activations (torch.nn.functional): compositions of table ops, so autograd differentiates them
// through their parts (Note [Losses as compositions] in ops/ops.yaml), except exact GELU, which
// runs its own erf kernel (gelu_erf, recorded in autograd/traced_activations.cpp).
//
// Where a branch of where() could overflow (exp of a large input in the branch not taken), its
// input is clamped first: where() sends that branch a zero gradient, and 0 * inf would be nan.

#include <string>
#include <vector>

#include "ops/elementwise.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/ops.h"

namespace tide::detail {

Tensor plain_gelu(const Tensor& self, const std::string& approximate) {
  check_defined(self, "gelu", "input");
  if (approximate == "none") return gelu_erf(self);
  TIDE_CHECK(approximate == "tanh", "[gelu] approximate argument must be either none or tanh. ",
             "(found '", approximate, "'); pass approximate=\"none\" or \"tanh\"");
  constexpr double kBeta = 0.79788456080286535588;  // sqrt(2 / pi)
  constexpr double kKappa = 0.044715;
  const Tensor inner = (self + self * self * self * Scalar(kKappa)) * Scalar(kBeta);
  return self * Scalar(0.5) * (tanh(inner) + Scalar(1));
}

Tensor plain_silu(const Tensor& self) { return self * sigmoid(self); }

Tensor plain_softplus(const Tensor& self, double beta, double threshold) {
  const Tensor scaled = self * Scalar(beta);
  const Tensor safe = clamp(scaled, std::nullopt, Scalar(threshold));
  return where(gt(scaled, Scalar(threshold)), self, log(exp(safe) + Scalar(1)) / Scalar(beta));
}

Tensor plain_mish(const Tensor& self) { return self * tanh(plain_softplus(self, 1.0, 20.0)); }

Tensor plain_leaky_relu(const Tensor& self, double negative_slope) {
  return where(gt(self, Scalar(0)), self, self * Scalar(negative_slope));
}

Tensor plain_elu(const Tensor& self, double alpha, double scale, double input_scale) {
  const Tensor negative = clamp(self, std::nullopt, Scalar(0));
  return where(gt(self, Scalar(0)), self * Scalar(scale),
               (exp(negative * Scalar(input_scale)) - Scalar(1)) * Scalar(scale * alpha));
}

Tensor plain_hardtanh(const Tensor& self, double min_val, double max_val) {
  TIDE_CHECK(min_val <= max_val, "[hardtanh] min_val cannot be greater than max_val (found ",
             min_val, " > ", max_val, "); swap them");
  return clamp(self, Scalar(min_val), Scalar(max_val));
}

Tensor plain_prelu(const Tensor& self, const Tensor& weight) {
  check_defined(self, "prelu", "input");
  check_defined(weight, "prelu", "weight");
  TIDE_CHECK(self.dim() > 0, "[prelu] Not allow zero-dim input tensor.; pass at least a 1-D input");
  const int64_t channels = self.dim() >= 2 ? self.shape()[1] : 1;
  TIDE_CHECK(weight.numel() == 1 || weight.numel() == channels,
             "[prelu] Mismatch of parameter numbers and input channel size. Found parameter "
             "numbers = ", weight.numel(), " and channel size = ", channels, ".");
  Tensor w = weight;
  if (weight.numel() != 1 || self.dim() >= 2) {
    std::vector<int64_t> shape(static_cast<size_t>(self.dim()), 1);
    if (self.dim() >= 2) shape[1] = weight.numel();
    w = weight.reshape(shape);
  }
  return where(gt(self, Scalar(0)), self, w * self);
}

}  // namespace tide::detail
