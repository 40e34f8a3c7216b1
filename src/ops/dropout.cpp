// dropout (torch.nn.functional.dropout): a composition of rand_like, lt and mul, so autograd
// differentiates it through the mask and the mask comes from the input device's Philox
// generator (the same mask on cpu, simulated and real GPUs for the same seed).

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {

Tensor plain_dropout(const Tensor& input, double p, bool training) {
  TIDE_CHECK(p >= 0.0 && p <= 1.0, "[dropout] dropout probability has to be between 0 and 1, but got ",
             p, "; pass the probability of zeroing an element");
  detail::check_defined(input, "dropout", "input");
  if (!training) return input;
  TIDE_CHECK(input.is_floating_point(), "[dropout] expected a floating-point input, got ",
             detail::torch_type_name(input.dtype()), "; convert it with .to(tide::kFloat32)");
  Tensor scaled_mask;
  {
    NoGradGuard no_grad;  // the mask is a constant of the graph
    // torch: bernoulli_(1 - p) keeps an element with probability 1 - p. p == 1 keeps none
    // (and must not divide by zero).
    const Tensor keep = lt(rand_like(input), 1.0 - p).to(input.dtype());
    scaled_mask = p == 1.0 ? keep : div(keep, 1.0 - p);  // torch: noise.div_(1 - p)
  }
  return mul(input, scaled_mask);
}

}  // namespace tide::detail
