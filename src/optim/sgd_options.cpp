#include "tide/optim/sgd_options.h"

#include "tide/error.h"

namespace tide::optim {

// torch's checks and wording (torch/optim/sgd.py, libtorch's SGD constructor), written so that
// NaN fails them as it fails torch's `not 0.0 <= lr`.
void SGDOptions::validate() const {
  TIDE_CHECK(lr_ >= 0, "[optim::SGD] Invalid learning rate: ", lr_,
             "; expected lr >= 0 (a step goes against the gradient by lr times it)");
  TIDE_CHECK(momentum_ >= 0, "[optim::SGD] Invalid momentum value: ", momentum_,
             "; expected momentum >= 0 (0 turns momentum off)");
  TIDE_CHECK(weight_decay_ >= 0, "[optim::SGD] Invalid weight_decay value: ", weight_decay_,
             "; expected weight_decay >= 0 (0 turns weight decay off)");
  TIDE_CHECK(!nesterov_ || (momentum_ > 0 && dampening_ == 0),
             "[optim::SGD] Nesterov momentum requires a momentum and zero dampening; found "
             "momentum ", momentum_, " and dampening ", dampening_,
             ": set momentum > 0 and dampening 0, or nesterov(false)");
}

}  // namespace tide::optim
