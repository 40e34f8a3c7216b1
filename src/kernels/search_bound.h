#pragma once
// The binary search of searchsorted and bucketize (Note [searchsorted] in ops/search.cpp),
// shared by the cpu and GPU kernels so both give the same positions.

#include <cstdint>

#include "kernels/convert.h"
#include "tide/macros.h"

namespace tide::kernels {

/// The insertion point of v in the sorted row[0, len): the first position whose entry is not
/// before v — entries `e` with !(e >= v) are before it for the left side, !(e > v) for the
/// right. These are torch's tests, so a NaN value lands past every number, as in torch.
template <class T, class C>
TIDE_HOST_DEVICE inline int64_t insertion_point(const T* row, int64_t len, C v, bool right) {
  int64_t lo = 0, hi = len;
  while (lo < hi) {
    const int64_t mid = lo + ((hi - lo) >> 1);
    const C e = convert<C>(row[mid]);
    const bool before = right ? !(e > v) : !(e >= v);
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace tide::kernels
