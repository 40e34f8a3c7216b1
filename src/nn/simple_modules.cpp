// The modules without parameters: ReLU, Dropout, Flatten.

#include "tide/error.h"
#include "tide/nn/dropout.h"
#include "tide/nn/flatten.h"
#include "tide/nn/relu.h"
#include "tide/ops.h"

namespace tide::nn {

Tensor ReLU::forward(const Tensor& input) { return relu(input); }

Dropout::Dropout(double p) : p(p) {
  TIDE_CHECK(p >= 0.0 && p <= 1.0,
             "[nn::Dropout] dropout probability has to be between 0 and 1, but got ", p,
             "; pass the probability of zeroing an element");
}

Tensor Dropout::forward(const Tensor& input) { return dropout(input, p, is_training()); }

Tensor Flatten::forward(const Tensor& input) { return input.flatten(start_dim, end_dim); }

}  // namespace tide::nn
