#pragma once
// Element counts, byte sizes and storage extents computed with int64 overflow checks.
//
// Note [Size overflow]: every tensor tide makes goes through one of these before its numel,
// its storage bytes or its strided extent is trusted, so that sizes whose product does not fit
// in int64 (empty({1LL << 62, 1LL << 62})) raise an error instead of wrapping into a small,
// wrong allocation. The checks are a few multiplies with a branch; messages are built only in
// the out-of-line throw_* functions, so the per-op path allocates nothing. As torch, a product
// that contains a zero is zero and never overflows.

#include <cstddef>
#include <cstdint>

#include "tide/dim_vector.h"
#include "tide/macros.h"

namespace tide::detail {

[[noreturn]] void throw_negative_size(const DimVector& sizes, const char* where);
[[noreturn]] void throw_numel_overflow(const DimVector& sizes, const char* where);
[[noreturn]] void throw_nbytes_overflow(const DimVector& sizes, size_t itemsize, const char* where);
[[noreturn]] void throw_extent_overflow(const DimVector& sizes, const DimVector& strides,
                                        const char* where);

/// Sets `numel` to the product of sizes and says whether it overflowed int64 (a product
/// containing 0 is 0 and never overflows).
inline bool numel_overflows(const DimVector& sizes, int64_t& numel) {
  int64_t n = 1;
  bool overflow = false;
  bool zero = false;
  for (int64_t s : sizes) {
    zero |= s == 0;
    overflow |= __builtin_mul_overflow(n, s, &n);
  }
  numel = zero ? 0 : n;
  return overflow && !zero;
}

/// Product of sizes, checking each is non-negative and that the product fits in int64.
inline int64_t checked_numel(const DimVector& sizes, const char* where) {
  for (int64_t s : sizes) {
    if (TIDE_UNLIKELY(s < 0)) throw_negative_size(sizes, where);
  }
  int64_t n = 0;
  if (TIDE_UNLIKELY(numel_overflows(sizes, n))) throw_numel_overflow(sizes, where);
  return n;
}

/// numel * itemsize in bytes, checking it fits in int64 (and so in size_t); `sizes` is only for
/// the message.
inline size_t checked_nbytes(const DimVector& sizes, int64_t numel, size_t itemsize,
                             const char* where) {
  int64_t nbytes = 0;
  if (TIDE_UNLIKELY(__builtin_mul_overflow(numel, static_cast<int64_t>(itemsize), &nbytes)))
    throw_nbytes_overflow(sizes, itemsize, where);
  return static_cast<size_t>(nbytes);
}

/// Elements a strided tensor reaches from offset 0: 1 + sum((size - 1) * stride), or 0 when a
/// size is 0; checking it fits in int64. Sizes and strides must be non-negative.
inline int64_t checked_storage_extent(const DimVector& sizes, const DimVector& strides,
                                      const char* where) {
  int64_t extent = 1;
  bool overflow = false;
  for (int64_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    int64_t reach = 0;
    overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach);
    overflow |= __builtin_add_overflow(extent, reach, &extent);
  }
  if (TIDE_UNLIKELY(overflow)) throw_extent_overflow(sizes, strides, where);
  return extent;
}

}  // namespace tide::detail
