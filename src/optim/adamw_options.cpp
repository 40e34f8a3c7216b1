#include "tide/optim/adamw_options.h"

#include "optim/adam_family.h"

namespace tide::optim {

void AdamWOptions::validate() const {
  detail::validate_adam_options(lr_, betas_, eps_, weight_decay_, "optim::AdamW");
}

}  // namespace tide::optim
