#pragma once
// Sorting along a dim on the cpu: sort, and through it argsort, topk, kthvalue, median.
//
// Note [Sort order]: ascending puts NaN after every number, descending before (torch's order:
// NaN is the largest value); the sort is stable (equal values keep their input order), which is
// one of the orders torch's unstable sort may give and the one its stable sort gives.

#include <cstdint>

#include "kernels/cpu/reduce_kernels.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// values[o, j, i] / indices[o, j, i]: the j-th element of line (o, i) of `in` (outer, len,
/// inner) in sorted order, and its position in the line. All contiguous, of in's shape; values
/// of in's dtype, indices int64; values may be undefined (argsort).
void sort_kernel(const Tensor& values, const Tensor& indices, const Tensor& in, ReduceShape shape,
                 bool descending);

}  // namespace tide::kernels
