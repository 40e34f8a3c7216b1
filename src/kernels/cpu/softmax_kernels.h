#pragma once
// softmax and log_softmax loops on the cpu.

#include "kernels/cpu/reduce_kernels.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// out = softmax (log_softmax when `log`) of `in` over the middle dim of `shape`
/// (Note [Reduction shape]). Numerically stable: the max of each slice is subtracted before
/// exp. `in` and `out` are contiguous and of the same floating dtype; 16-bit floats compute
/// in float.
void softmax_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool log);

}  // namespace tide::kernels
