// The loss modules: CrossEntropyLoss and MSELoss.

#include "tide/error.h"
#include "tide/nn/cross_entropy_loss.h"
#include "tide/nn/mse_loss.h"

namespace tide::nn {

namespace {

[[noreturn]] void throw_one_input(const std::string& name) {
  throw Error("[nn::" + name + "] a loss takes (input, target), got only an input; call " +
              "criterion(output, target)");
}

}  // namespace

CrossEntropyLoss::CrossEntropyLoss(Tensor weight, Reduction reduction, int64_t ignore_index)
    : weight(std::move(weight)), reduction(reduction), ignore_index(ignore_index) {
  if (this->weight.defined()) {
    TIDE_CHECK(this->weight.dim() == 1 && this->weight.is_floating_point(),
               "[nn::CrossEntropyLoss] expected weight to be a 1D floating-point tensor of one "
               "weight per class, got a ",
               this->weight.dim(), "D ", tide::name(this->weight.dtype()),
               " tensor; pass e.g. tide::tensor({1., 2., 0.5}) for 3 classes");
  }
  reset();
}

void CrossEntropyLoss::reset() {
  // A new handle on the same storage (Note [Modules move in place]): moving the module must
  // not move the caller's tensor, and a clone's reset() must not share the original's.
  if (weight.defined()) weight = register_buffer("weight", weight.detach());
}

Tensor CrossEntropyLoss::forward(const Tensor& input, const Tensor& target) {
  return cross_entropy(input, target, weight, reduction, ignore_index);
}

Tensor CrossEntropyLoss::forward(const Tensor& /*input*/) { throw_one_input(name()); }

Tensor MSELoss::forward(const Tensor& input, const Tensor& target) {
  return mse_loss(input, target, reduction);
}

Tensor MSELoss::forward(const Tensor& /*input*/) { throw_one_input(name()); }

}  // namespace tide::nn
