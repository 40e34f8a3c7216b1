#pragma once
// OffsetCalculator: linear element index -> byte offset of every operand, for the strided GPU
// path. Plain C++ with TIDE_HOST_DEVICE members, so it is unit-tested without a GPU.

#include <cstdint>
#include <limits>

#include "kernels/cpu/elementwise.h"
#include "tide/error.h"
#include "tide/macros.h"

#if defined(__CUDACC__)
#define TIDE_UNROLL _Pragma("unroll")
#else
#define TIDE_UNROLL
#endif

namespace tide::kernels::cuda {

/// Note [Strided GPU path]: the kernel gets the iteration space by value as a fixed-size struct
/// (no device allocation, no copy before the launch): the coalesced shape and byte strides of
/// kernels::ElementwiseIter, innermost dimension first. Coalescing leaves one dimension per
/// run of dimensions that cannot be merged, so 10 covers every realistic layout; a deeper one
/// is split on the host into launches over its innermost kMaxKernelDims dimensions
/// (for_each_kernel_iter). Index is uint32_t when the element count and every operand's largest
/// byte offset fit in int32 (fits_32bit_indexing), int64_t otherwise: 64-bit division is a
/// long software sequence on the GPU, 32-bit is a few instructions.
inline constexpr int kMaxKernelDims = 10;

template <int N, class Index>
struct OffsetCalculator {
  struct Offsets {
    Index v[N];
  };

  int ndim = 0;
  Index sizes[kMaxKernelDims] = {};
  Index strides[kMaxKernelDims][N] = {};  // bytes

  /// Byte offsets of element `linear` (row-major over the original dimension order).
  TIDE_HOST_DEVICE Offsets get(Index linear) const {
    Offsets o;
    TIDE_UNROLL
    for (int k = 0; k < N; ++k) o.v[k] = 0;
    TIDE_UNROLL
    for (int d = 0; d < kMaxKernelDims; ++d) {
      if (d == ndim) break;
      Index i = linear;
      if (d + 1 < ndim) {  // the outermost dimension needs no division
        const Index q = linear / sizes[d];
        i = linear - q * sizes[d];
        linear = q;
      }
      TIDE_UNROLL
      for (int k = 0; k < N; ++k) o.v[k] += i * strides[d][k];
    }
    return o;
  }
};

/// True when 32-bit indices reach every element: numel and every operand's largest byte offset
/// are at most INT32_MAX and no stride is negative. Note [Strided GPU path].
inline bool fits_32bit_indexing(const kernels::ElementwiseIter& it) {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (it.numel > kMax) return false;
  for (int k = 0; k < it.num_operands; ++k) {
    int64_t extent = 0;
    for (int64_t d = 0; d < it.shape.size(); ++d) {
      const int64_t stride = it.strides[k][d];
      if (stride < 0 || stride > kMax) return false;
      extent += (it.shape[d] - 1) * stride;
      if (extent > kMax) return false;
    }
  }
  return true;
}

/// The calculator for an iterator of N operands and at most kMaxKernelDims dimensions.
template <int N, class Index>
OffsetCalculator<N, Index> make_offset_calculator(const kernels::ElementwiseIter& it) {
  const int64_t ndim = it.shape.size();
  TIDE_INTERNAL_ASSERT(it.num_operands == N && ndim <= kMaxKernelDims);
  OffsetCalculator<N, Index> c;
  c.ndim = static_cast<int>(ndim);
  for (int64_t d = 0; d < ndim; ++d) {
    const int64_t src = ndim - 1 - d;  // innermost first
    c.sizes[d] = static_cast<Index>(it.shape[src]);
    for (int k = 0; k < N; ++k) c.strides[d][k] = static_cast<Index>(it.strides[k][src]);
  }
  return c;
}

/// Calls launch(sub) for iterators of at most kMaxKernelDims dimensions covering `it`: `it`
/// itself, or one per index of the outer dimensions beyond the limit (Note [Strided GPU path]).
template <class Launch>
void for_each_kernel_iter(const kernels::ElementwiseIter& it, const Launch& launch) {
  const int64_t ndim = it.shape.size();
  if (ndim <= kMaxKernelDims) {
    launch(it);
    return;
  }
  kernels::ElementwiseIter sub = it;
  sub.shape = DimVector(it.shape.begin() + 1, it.shape.end());
  for (int k = 0; k < it.num_operands; ++k) {
    sub.strides[k] = DimVector(it.strides[k].begin() + 1, it.strides[k].end());
  }
  sub.numel = it.numel / it.shape[0];
  for (int64_t i = 0; i < it.shape[0]; ++i) {
    for (int k = 0; k < it.num_operands; ++k) sub.data[k] = it.data[k] + i * it.strides[k][0];
    for_each_kernel_iter(sub, launch);
  }
}

}  // namespace tide::kernels::cuda
