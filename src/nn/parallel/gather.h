#pragma once
// gather: the replicas' outputs joined on one device (torch.nn.parallel.gather for tensors).

#include <cstdint>
#include <vector>

#include "tide/tensor.h"

namespace tide::nn::parallel {

/// Copies every output to cuda:output_device and concatenates them along `dim`, recorded by
/// autograd. Outputs that are all 0-dim are gathered into a vector, one element per replica,
/// as torch's Gather does (torch also warns).
Tensor gather(const std::vector<Tensor>& outputs, int output_device, int64_t dim);

}  // namespace tide::nn::parallel
