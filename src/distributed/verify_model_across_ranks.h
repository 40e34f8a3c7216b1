#pragma once
// DistributedDataParallel's construction check that every rank wraps the same model (torch's
// _verify_param_shape_across_processes), shared by nn::DistributedDataParallel and the Python
// package's DistributedDataParallel.

#include <vector>

#include "tide/device.h"
#include "tide/tensor.h"

namespace tide::distributed::detail {

/// Collective: every rank's parameter count, element count and a hash of the shapes, in one
/// all_gather on `device`, compared with this rank's. Every rank sees the same table, so all of
/// them raise tide::Error together (torch's "DDP expects same model across all ranks") instead
/// of hanging in the broadcast that follows.
void verify_same_model_across_ranks(const std::vector<Tensor>& params, Device device);

}  // namespace tide::distributed::detail
