#pragma once
// The layout of a pointwise op's new output (Note [Memory formats] in tensor/memory_format.cpp):
// TensorIterator's rule, so that a channels-last input gives a channels-last output.

#include <initializer_list>

#include "tensor/tensor_internal.h"

namespace tide::detail {

/// The general case of empty_pointwise: some operand is not contiguous.
Tensor empty_pointwise_strided(const DimVector& shape, Dtype dtype, Device device,
                               std::initializer_list<const Tensor*> operands);

/// A new output of `shape` for a pointwise op over `operands` (each broadcastable to shape; null
/// entries, such as a Scalar's, are skipped): contiguous when every operand is — one cached
/// bool each, the whole cost on the common path — else laid out as the operands are.
inline Tensor empty_pointwise(const DimVector& shape, Dtype dtype, Device device,
                              std::initializer_list<const Tensor*> operands) {
  for (const Tensor* t : operands) {
    if (t && !t->is_contiguous()) return empty_pointwise_strided(shape, dtype, device, operands);
  }
  return make_empty(shape, dtype, device);
}

}  // namespace tide::detail
