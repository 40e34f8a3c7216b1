#include "tide/nn/linear.h"

#include <cmath>

#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn {

Linear::Linear(int64_t in_features, int64_t out_features, bool bias)
    : in_features(in_features), out_features(out_features), has_bias(bias) {
  TIDE_CHECK(in_features >= 0 && out_features >= 0,
             "[nn::Linear] expected non-negative in_features and out_features, got in_features=",
             in_features, " and out_features=", out_features,
             "; pass the sizes of the input's and the output's last dimension");
  reset();
  reset_parameters();
}

void Linear::reset() {
  weight = register_parameter("weight", empty({out_features, in_features}));
  bias = has_bias ? register_parameter("bias", empty({out_features})) : Tensor();
}

void Linear::reset_parameters() {
  // torch: kaiming_uniform_(weight, a=sqrt(5)) has bound gain*sqrt(3/fan_in) with
  // gain = sqrt(2/(1+a^2)) = sqrt(1/3), i.e. 1/sqrt(fan_in); the bias uses the same bound.
  // In that order (weight, then bias), so the draws follow torch's sequence of calls.
  NoGradGuard no_grad;
  const double bound = in_features > 0 ? 1.0 / std::sqrt(static_cast<double>(in_features)) : 0.0;
  weight.uniform_(-bound, bound);
  if (bias.defined()) bias.uniform_(-bound, bound);
}

Tensor Linear::forward(const Tensor& input) {
  TIDE_CHECK(input.defined(), "[nn::Linear] expected a defined input tensor");
  if (TIDE_UNLIKELY(input.dim() < 1 || input.size(-1) != in_features)) {
    std::string shape = "[";
    for (int64_t i = 0; i < input.dim(); ++i) shape += (i ? ", " : "") + std::to_string(input.size(i));
    TIDE_CHECK(false, "[nn::Linear] expected an input whose last dimension is in_features=",
               in_features, ", got shape ", shape,
               "]; reshape the input (nn::Flatten) or build the Linear for this input");
  }
  return tide::linear(input, weight, bias);
}

}  // namespace tide::nn
