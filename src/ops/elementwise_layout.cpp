// The layout of a pointwise op's output when an operand is not contiguous: TensorIterator's
// fast setups (all channels-last, or all dense with the same strides), else its stride order.

#include "ops/elementwise_layout.h"

#include "tensor/memory_format.h"

namespace tide::detail {
namespace {

/// `t`'s strides for `shape` as a broadcast sees them: 0 where t has size 1 (or no dim) and
/// the shape does not.
DimVector broadcast_strides(const Tensor& t, const DimVector& shape) {
  const int64_t ndim = shape.size(), lead = ndim - t.dim();
  DimVector s(ndim);
  for (int64_t d = 0; d < ndim; ++d) {
    const bool broadcast = d < lead || (t.shape()[d - lead] == 1 && shape[d] != 1);
    s[d] = broadcast ? 0 : t.stride_vector()[d - lead];
  }
  return s;
}

/// TensorIterator's fast setups for operands of one shape; false when none applies.
bool same_shape_layout(const DimVector& shape, std::initializer_list<const Tensor*> operands,
                       DimVector& strides) {
  bool channels_last = true, dense_alike = true;
  const Tensor* last = nullptr;
  for (const Tensor* t : operands) {
    if (!t) continue;
    if (t->shape() != shape) return false;
    channels_last = channels_last && t->is_contiguous(MemoryFormat::ChannelsLast);
    dense_alike = dense_alike && t->is_non_overlapping_and_dense() &&
                  (!last || last->stride_vector() == t->stride_vector());
    last = t;
  }
  if (!last) return false;
  if (channels_last) {
    strides = strides_for(MemoryFormat::ChannelsLast, shape, "pointwise");
    return true;
  }
  if (dense_alike) strides = last->stride_vector();
  return dense_alike;
}

}  // namespace

Tensor empty_pointwise_strided(const DimVector& shape, Dtype dtype, Device device,
                               std::initializer_list<const Tensor*> operands) {
  DimVector strides;
  if (same_shape_layout(shape, operands, strides))
    return make_empty_strided(shape, strides, dtype, device);

  // TensorIterator's reorder_dimensions: the dims innermost first, where the first operand
  // whose strides differ (neither broadcast) decides, and equal strides put the smaller dim
  // first; then dense strides in that order.
  const int64_t ndim = shape.size();
  DimVector op_strides[4];
  int nops = 0;
  for (const Tensor* t : operands) {
    if (t && nops < 4) op_strides[nops++] = broadcast_strides(*t, shape);
  }
  const auto should_swap = [&](int64_t d0, int64_t d1) {
    for (int k = 0; k < nops; ++k) {
      const int64_t s0 = op_strides[k][d0], s1 = op_strides[k][d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 < s1 ? -1 : 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  const DimVector perm = dims_innermost_first(ndim, should_swap);
  bool row_major = true;
  for (int64_t i = 0; i < ndim; ++i) row_major = row_major && perm[i] == ndim - 1 - i;
  if (row_major) return make_empty(shape, dtype, device);
  strides = DimVector(ndim);
  int64_t s = 1;
  for (int64_t i = 0; i < ndim; ++i) {
    strides[perm[i]] = s;
    s *= shape[perm[i]];
  }
  return make_empty_strided(shape, strides, dtype, device);
}

}  // namespace tide::detail
