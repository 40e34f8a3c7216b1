#pragma once
// Concatenation on the cpu.

#include <cstdint>
#include <vector>

#include "tide/tensor.h"

namespace tide::kernels {

/// Writes inputs one after another along `dim` of the contiguous `out`, converting dtypes where
/// an input's differs from out's. Each input has out's shape except along `dim`, and the
/// sizes along `dim` add up to out's.
void cat_kernel(const Tensor& out, const std::vector<Tensor>& inputs, int64_t dim);

}  // namespace tide::kernels
