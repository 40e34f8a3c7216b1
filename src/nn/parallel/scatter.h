#pragma once
// scatter: a batch cut into one piece per device (torch.nn.parallel.scatter for one tensor).

#include <cstdint>
#include <vector>

#include "tide/tensor.h"

namespace tide::nn::parallel {

/// Cuts `input` along `dim` as Tensor::chunk(device_ids.size(), dim) does and copies piece i
/// to cuda:device_ids[i] (non_blocking, recorded by autograd, so gradients reach `input`). A
/// dim shorter than the device count gives fewer pieces than devices (torch's comm.scatter).
std::vector<Tensor> scatter(const Tensor& input, const std::vector<int>& device_ids, int64_t dim);

}  // namespace tide::nn::parallel
