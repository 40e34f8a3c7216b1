#pragma once
// searchsorted's binary search on the cpu (Note [searchsorted] in ops/search.cpp).

#include <cstdint>

#include "tide/tensor.h"

namespace tide::kernels {

/// out[i] = the insertion point of values[i] in row i / per_row of `sorted` (rows of `len`
/// entries). All contiguous; sorted and values of one dtype; out int64 or int32.
void search_kernel(const Tensor& out, const Tensor& sorted, const Tensor& values, int64_t len,
                   int64_t per_row, bool right);

}  // namespace tide::kernels
