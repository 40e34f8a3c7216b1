// The activation modules of tide/nn/activations.h: each forwards to its function.

#include "tide/error.h"
#include "tide/factories.h"
#include "tide/nn/activations.h"
#include "tide/ops.h"

namespace tide::nn {

Tensor GELU::forward(const Tensor& input) { return gelu(input, approximate); }
Tensor SiLU::forward(const Tensor& input) { return silu(input); }
Tensor Mish::forward(const Tensor& input) { return mish(input); }
Tensor Tanh::forward(const Tensor& input) { return tanh(input); }
Tensor Sigmoid::forward(const Tensor& input) { return sigmoid(input); }
Tensor Softplus::forward(const Tensor& input) { return softplus(input, beta, threshold); }
Tensor LeakyReLU::forward(const Tensor& input) { return leaky_relu(input, negative_slope); }
Tensor ELU::forward(const Tensor& input) { return elu(input, alpha); }

Hardtanh::Hardtanh(double min_val, double max_val) : min_val(min_val), max_val(max_val) {
  TIDE_CHECK(max_val > min_val, "[nn::Hardtanh] expected max_val > min_val, found min_val ",
             min_val, " and max_val ", max_val, "; swap them");
}

Tensor Hardtanh::forward(const Tensor& input) { return hardtanh(input, min_val, max_val); }

PReLU::PReLU(int64_t num_parameters, double init) : num_parameters(num_parameters), init(init) {
  TIDE_CHECK(num_parameters >= 1, "[nn::PReLU] expected num_parameters >= 1, found ",
             num_parameters, "; pass 1 or the number of input channels");
  reset();
}

void PReLU::reset() { weight = register_parameter("weight", full({num_parameters}, init)); }

Tensor PReLU::forward(const Tensor& input) { return prelu(input, weight); }

}  // namespace tide::nn
