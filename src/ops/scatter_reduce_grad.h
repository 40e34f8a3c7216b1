#pragma once
// scatter_reduce's prod, amax and amin with torch 1.13's gradients (Note [scatter_reduce
// gradients] in ops/scatter_reduce_grad.cpp).

#include <cstdint>
#include <string>

#include "tide/tensor.h"

namespace tide::detail {

/// self.scatter_reduce(dim, index, src, reduce, include_self) for reduce prod, amax or amin,
/// recorded as one ScatterReduceBackward0 node with torch's derivatives of self and src.
/// self, index and src have rank 1 or more.
Tensor scatter_reduce_recorded(const Tensor& self, int64_t dim, const Tensor& index,
                               const Tensor& src, const std::string& reduce, bool include_self);

}  // namespace tide::detail
