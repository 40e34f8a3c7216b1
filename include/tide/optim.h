#pragma once
// tide::optim: the optimizers' options (the optimizers themselves come with autograd), as
// libtorch's torch/optim.h.

#include "tide/optim/adam_options.h"  // IWYU pragma: export
#include "tide/optim/sgd_options.h"   // IWYU pragma: export
