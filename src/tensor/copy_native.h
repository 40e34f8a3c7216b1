#pragma once
// Copies between devices when cuda is a real GPU (Note [Copies on real GPUs]).

#include "tide/tensor.h"

namespace tide::detail {

/// dst.copy_(src, non_blocking) for dst and src on different devices, at least one a real
/// GPU. Same semantics as Note [Copies between devices]; different mechanics, since host and
/// device memory are not both addressable from one kernel.
void copy_between_devices_native(const Tensor& dst, const Tensor& src, bool non_blocking);

}  // namespace tide::detail
