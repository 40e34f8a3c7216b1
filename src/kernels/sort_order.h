#pragma once
// The comparison of Note [Sort order], shared by the cpu and GPU sorts.

#include "kernels/convert.h"
#include "kernels/functors.h"
#include "tide/macros.h"

namespace tide::kernels {

/// Whether `a` goes strictly before `b` (NaN is the largest value).
template <class C>
TIDE_HOST_DEVICE inline bool sorts_before(C a, C b, bool descending) {
  if (descending) return (a > b) || (is_nan(a) && !is_nan(b));
  return (a < b) || (!is_nan(a) && is_nan(b));
}

}  // namespace tide::kernels
