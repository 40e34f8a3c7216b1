#include "tide/optim/adagrad_options.h"

#include "tide/error.h"

namespace tide::optim {

// torch's checks and wording (torch/optim/adagrad.py), written so that NaN fails them as it
// fails torch's `not 0.0 <= lr`.
void AdagradOptions::validate() const {
  TIDE_CHECK(lr_ >= 0, "[optim::Adagrad] Invalid learning rate: ", lr_, "; expected lr >= 0");
  TIDE_CHECK(lr_decay_ >= 0, "[optim::Adagrad] Invalid lr_decay value: ", lr_decay_,
             "; expected lr_decay >= 0 (0 keeps the learning rate)");
  TIDE_CHECK(weight_decay_ >= 0, "[optim::Adagrad] Invalid weight_decay value: ", weight_decay_,
             "; expected weight_decay >= 0 (0 turns weight decay off)");
  TIDE_CHECK(initial_accumulator_value_ >= 0,
             "[optim::Adagrad] Invalid initial_accumulator_value value: ",
             initial_accumulator_value_, "; expected initial_accumulator_value >= 0");
  TIDE_CHECK(eps_ >= 0, "[optim::Adagrad] Invalid epsilon value: ", eps_,
             "; expected eps >= 0 (it keeps the denominator away from 0, 1e-10 by default)");
}

}  // namespace tide::optim
