#include "tide/optim/adam_options.h"

#include "optim/adam_family.h"

namespace tide::optim {

void AdamOptions::validate() const {
  detail::validate_adam_options(lr_, betas_, eps_, weight_decay_, "optim::Adam");
}

}  // namespace tide::optim
