#pragma once
// tide::optim: the optimizers and their options, as libtorch's torch/optim.h.

#include "tide/optim/adagrad.h"               // IWYU pragma: export
#include "tide/optim/adagrad_options.h"       // IWYU pragma: export
#include "tide/optim/adam.h"                  // IWYU pragma: export
#include "tide/optim/adam_options.h"          // IWYU pragma: export
#include "tide/optim/adamw.h"                 // IWYU pragma: export
#include "tide/optim/adamw_options.h"         // IWYU pragma: export
#include "tide/optim/grouped_optimizer.h"     // IWYU pragma: export
#include "tide/optim/optimizer.h"             // IWYU pragma: export
#include "tide/optim/rmsprop.h"               // IWYU pragma: export
#include "tide/optim/rmsprop_options.h"       // IWYU pragma: export
#include "tide/optim/sgd.h"                   // IWYU pragma: export
#include "tide/optim/sgd_options.h"           // IWYU pragma: export
