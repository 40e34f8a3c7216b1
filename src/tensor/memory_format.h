#pragma once
// The strides a new tensor gets for a memory format (Note [Memory formats] in
// tensor/memory_format.cpp). Internal to the tensor and ops layers.

#include <utility>

#include "tide/memory_format.h"
#include "tide/tensor.h"

namespace tide::detail {

/// The standard strides of `format` for `sizes` (Contiguous, ChannelsLast: 4 dims,
/// ChannelsLast3d: 5 dims); Preserve is refused, as torch's empty(memory_format=preserve_format).
DimVector strides_for(MemoryFormat format, const DimVector& sizes, const char* where);
/// The strides a tensor made from `like` gets in `format`: Preserve keeps like's layout.
DimVector strides_for(MemoryFormat format, const Tensor& like, const char* where);
/// Preserve's rule: like's strides when it is non-overlapping and dense, else dense strides in
/// like's stride order (torch's infer_dense_strides).
DimVector preserved_strides(const Tensor& like);
/// Dense strides with the dims in the order of `strides` (torch's infer_dense_strides).
DimVector dense_strides_like(const DimVector& sizes, const DimVector& strides);
/// The dims innermost first, as torch's infer_dense_strides and TensorIterator order them: a
/// stable insertion sort from the row-major order, where cmp(d0, d1) > 0 moves d1 inside d0,
/// < 0 keeps them, and 0 (no opinion: a broadcast dim) leaves d1 where it is.
template <class Cmp>
DimVector dims_innermost_first(int64_t ndim, const Cmp& cmp) {
  DimVector perm(ndim);
  for (int64_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t d1 = i;
    for (int64_t d0 = i - 1; d0 >= 0; --d0) {
      const int c = cmp(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

/// A new uninitialized tensor with dense `strides` (any order of the dims).
Tensor make_empty_strided(const DimVector& sizes, const DimVector& strides, Dtype dtype,
                          Device device, bool pinned = false, const char* where = "empty");

}  // namespace tide::detail
