#pragma once
// Index loops on the cpu: index_select.

#include <cstdint>

#include "kernels/index_error.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// out[o, j, i] = in[o, index[j], i] with in viewed as (outer, size, inner) around `dim` and
/// out as (outer, index.numel(), inner). in and out are contiguous with the same dtype; index
/// is contiguous int64 or int32. Indices are not wrapped (as torch): the first one outside
/// [0, size) is reported and nothing is written (Note [Index errors in kernels]).
IndexError index_select_kernel(const Tensor& out, const Tensor& in, const Tensor& index,
                               int64_t dim);

}  // namespace tide::kernels
