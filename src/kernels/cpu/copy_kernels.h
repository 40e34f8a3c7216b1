#pragma once
// Copy with dtype conversion, and fill, on the cpu.

#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// dst = src broadcast to dst's shape (torch's copy_ rule; expand raises otherwise) and
/// converted to dst's dtype; any strides on both sides.
void copy_kernel(const Tensor& dst, const Tensor& src);
/// Every element of t (any strides) becomes value.
void fill_kernel(const Tensor& t, const Scalar& value);

}  // namespace tide::kernels
