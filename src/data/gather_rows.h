#pragma once
// gather_rows: the batch of a dataset that holds every sample in one tensor.

#include <cstddef>
#include <span>

#include "tide/tensor.h"

namespace tide::data::detail {

/// source[indices[0]], source[indices[1]], ... stacked into a new contiguous tensor of shape
/// (indices.size(), source.size(1), ...), in pinned memory when `pinned`. A contiguous cpu
/// source is copied row by row with memcpy (runs of consecutive indices in one call), which is
/// what makes TensorDataset batches cheap; other sources go through index_select. `where`
/// names the caller in errors (an index out of range).
Tensor gather_rows(const Tensor& source, std::span<const size_t> indices, bool pinned,
                   const char* where);

}  // namespace tide::data::detail
