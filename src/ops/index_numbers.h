#pragma once
// Flat element numbers for take and put_ (Note [Advanced indexing] in ops/indexing.cpp): the
// helpers that the indexing front ends (ops/indexing.cpp, ops/indexing_along_dim.cpp) share.

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/index_error.h"
#include "tide/tensor.h"

namespace tide::detail {

/// index as contiguous int64 on its device, each entry checked against [0, size) — or
/// [-size, size) with negative entries counted from the end, for the kinds that wrap
/// (kernels::negative_indices_wrap) — by the index_wrap kernel, which reports a bad one as
/// `kind` says (aux: the dim) and replaces it by 0.
Tensor wrapped(const Tensor& index, int64_t size, kernels::IndexErrorKind kind, int64_t aux,
               const char* where);

/// The element strides of a contiguous tensor of `shape`: what flat numbers count in.
std::vector<int64_t> row_major_strides(const DimVector& shape);

/// "[2, 3]", as torch's messages print shapes.
std::string shape_list(const DimVector& shape);

}  // namespace tide::detail
