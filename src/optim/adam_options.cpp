#include "tide/optim/adam_options.h"

#include "tide/error.h"

namespace tide::optim {

// torch's checks and wording (torch/optim/adam.py, libtorch's Adam constructor), written so
// that NaN fails them as it fails torch's `not 0.0 <= lr`.
void AdamOptions::validate() const {
  TIDE_CHECK(lr_ >= 0, "[optim::Adam] Invalid learning rate: ", lr_, "; expected lr >= 0");
  TIDE_CHECK(eps_ >= 0, "[optim::Adam] Invalid epsilon value: ", eps_,
             "; expected eps >= 0 (it keeps the denominator away from 0, 1e-8 by default)");
  const auto [beta1, beta2] = betas_;
  TIDE_CHECK(beta1 >= 0 && beta1 < 1, "[optim::Adam] Invalid beta parameter at index 0: ", beta1,
             "; expected 0 <= beta1 < 1 (0.9 by default)");
  TIDE_CHECK(beta2 >= 0 && beta2 < 1, "[optim::Adam] Invalid beta parameter at index 1: ", beta2,
             "; expected 0 <= beta2 < 1 (0.999 by default)");
  TIDE_CHECK(weight_decay_ >= 0, "[optim::Adam] Invalid weight_decay value: ", weight_decay_,
             "; expected weight_decay >= 0 (0 turns weight decay off)");
}

}  // namespace tide::optim
