// tide::linear, torch.nn.functional.linear: the computation of nn::Linear, shared with the
// Python package's nn.Linear so both give the same bits (tests/python/test_train_loop_parity.py).

#include "ops/plain_front_ends.h"
#include "tide/ops.h"

namespace tide::detail {

Tensor plain_linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  // addmm fuses the bias into the product for the common 2-d case; matmul broadcasts the rest.
  if (input.dim() == 2 && bias.defined()) return addmm(bias, input, weight.t());
  Tensor out = matmul(input, weight.t());
  return bias.defined() ? out + bias : out;
}

}  // namespace tide::detail
