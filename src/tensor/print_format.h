#pragma once
// torch's tensor repr (torch/_tensor_str.py), split from Tensor::str so that the layout can be
// tested for devices a test machine does not have.

#include <string>

#include "tide/device.h"
#include "tide/tensor.h"

namespace tide::detail {

/// torch's repr of `host`, a cpu tensor, printed as living on `shown_device`
/// (non-cpu devices get torch's device='...' suffix).
std::string tensor_repr(const Tensor& host, const Device& shown_device,
                        const std::string& autograd_suffix = {});

}  // namespace tide::detail
