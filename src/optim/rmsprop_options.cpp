#include "tide/optim/rmsprop_options.h"

#include "tide/error.h"

namespace tide::optim {

// torch's checks and wording (torch/optim/rmsprop.py), written so that NaN fails them as it
// fails torch's `not 0.0 <= lr`.
void RMSpropOptions::validate() const {
  TIDE_CHECK(lr_ >= 0, "[optim::RMSprop] Invalid learning rate: ", lr_, "; expected lr >= 0");
  TIDE_CHECK(eps_ >= 0, "[optim::RMSprop] Invalid epsilon value: ", eps_,
             "; expected eps >= 0 (it keeps the denominator away from 0, 1e-8 by default)");
  TIDE_CHECK(momentum_ >= 0, "[optim::RMSprop] Invalid momentum value: ", momentum_,
             "; expected momentum >= 0 (0 turns momentum off)");
  TIDE_CHECK(weight_decay_ >= 0, "[optim::RMSprop] Invalid weight_decay value: ", weight_decay_,
             "; expected weight_decay >= 0 (0 turns weight decay off)");
  TIDE_CHECK(alpha_ >= 0, "[optim::RMSprop] Invalid alpha value: ", alpha_,
             "; expected alpha >= 0 (the smoothing constant, 0.99 by default)");
}

}  // namespace tide::optim
