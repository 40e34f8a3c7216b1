#pragma once
// OffsetCalculator: linear element index -> byte offset of every operand, for the strided GPU
// path. Plain C++ with TIDE_HOST_DEVICE members, so it is unit-tested without a GPU.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

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
/// (for_each_kernel_iter). Indices are 32-bit: 64-bit division is a long software sequence on
/// the GPU, 32-bit is a few instructions. An iteration space whose element count or largest
/// byte offset does not fit in int32 is split on the host too, by halving its widest dimension
/// until every piece fits (fits_32bit_indexing), as ATen does. So each functor is compiled
/// into one strided kernel, not two: the 64-bit one, there for tensors of 2^31 elements or
/// more, took most of ptxas's time in the elementwise files (issue 24's build-time budget).
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
/// are at most `limit` (INT32_MAX; tests pass less) and no stride is negative. Dimensions of
/// size 1 are never stepped along, so their strides do not count. Note [Strided GPU path].
inline bool fits_32bit_indexing(const kernels::ElementwiseIter& it,
                                int64_t limit = std::numeric_limits<int32_t>::max()) {
  if (it.numel > limit) return false;
  for (int k = 0; k < it.num_operands; ++k) {
    int64_t extent = 0;
    for (int64_t d = 0; d < it.shape.size(); ++d) {
      if (it.shape[d] == 1) continue;
      const int64_t stride = it.strides[k][d];
      if (stride < 0 || stride > limit) return false;
      extent += (it.shape[d] - 1) * stride;
      if (extent > limit) return false;
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
    for (int k = 0; k < N; ++k) {
      // A size-1 dimension's stride is only ever multiplied by 0, and may not fit Index.
      c.strides[d][k] = it.shape[src] == 1 ? Index{0} : static_cast<Index>(it.strides[k][src]);
    }
  }
  return c;
}

/// The two halves of `it` along dimension d: indices [0, n/2) and [n/2, n).
inline std::pair<kernels::ElementwiseIter, kernels::ElementwiseIter> split_in_halves(
    const kernels::ElementwiseIter& it, int64_t d) {
  const int64_t size = it.shape[d];
  const int64_t first = size / 2;
  std::pair<kernels::ElementwiseIter, kernels::ElementwiseIter> halves{it, it};
  halves.first.shape[d] = first;
  halves.second.shape[d] = size - first;
  halves.first.numel = it.numel / size * first;
  halves.second.numel = it.numel / size * (size - first);
  for (int k = 0; k < it.num_operands; ++k) halves.second.data[k] += first * it.strides[k][d];
  return halves;
}

/// The dimension to halve so that the pieces come closer to 32-bit indexing: the one whose
/// steps reach furthest, (size - 1) * the largest stride of any operand (a zero stride counts
/// as 1, so that a count too large for int32 shrinks too).
inline int64_t widest_dimension(const kernels::ElementwiseIter& it) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t best = 0;
  int64_t best_reach = -1;
  for (int64_t d = 0; d < it.shape.size(); ++d) {
    int64_t stride = 1;
    for (int k = 0; k < it.num_operands; ++k) {
      stride = std::max(stride, it.strides[k][d] < 0 ? -it.strides[k][d] : it.strides[k][d]);
    }
    // Saturates instead of overflowing: only the order matters.
    const int64_t steps = it.shape[d] - 1;
    const int64_t reach = steps > 0 && stride > kMax / steps ? kMax : steps * stride;
    if (reach > best_reach) {
      best = d;
      best_reach = reach;
    }
  }
  return best;
}

/// Calls launch(sub) for iterators covering `it`, each of at most kMaxKernelDims dimensions
/// and fitting 32-bit indexing under `limit`: `it` itself when it does; else one per index of
/// the outer dimensions beyond kMaxKernelDims, and halves of the widest dimension until the
/// pieces fit (Note [Strided GPU path]).
template <class Launch>
void for_each_kernel_iter(const kernels::ElementwiseIter& it, const Launch& launch,
                          int64_t limit = std::numeric_limits<int32_t>::max()) {
  if (it.numel == 0) return;
  const int64_t ndim = it.shape.size();
  if (ndim > kMaxKernelDims) {
    kernels::ElementwiseIter sub = it;
    sub.shape = DimVector(it.shape.begin() + 1, it.shape.end());
    for (int k = 0; k < it.num_operands; ++k) {
      sub.strides[k] = DimVector(it.strides[k].begin() + 1, it.strides[k].end());
    }
    sub.numel = it.numel / it.shape[0];
    for (int64_t i = 0; i < it.shape[0]; ++i) {
      for (int k = 0; k < it.num_operands; ++k) sub.data[k] = it.data[k] + i * it.strides[k][0];
      for_each_kernel_iter(sub, launch, limit);
    }
    return;
  }
  if (fits_32bit_indexing(it, limit)) {
    launch(it);
    return;
  }
  // Each split shrinks a dimension of size > 1, so this ends, at the latest with one-element
  // pieces (no steps: they always fit).
  const auto [first, second] = split_in_halves(it, widest_dimension(it));
  for_each_kernel_iter(first, launch, limit);
  for_each_kernel_iter(second, launch, limit);
}

}  // namespace tide::kernels::cuda
