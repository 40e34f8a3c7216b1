#pragma once
// IndexError: what a kernel reports when it meets an index outside its bound.
//
// Note [Index errors in kernels]: a kernel that reads user-supplied indices (nll_loss targets,
// index_select indices) checks each one itself and reports the first bad one as
// (position, value, bound) instead of throwing. The same kernel structure then works where
// throwing is impossible (a stream worker, a GPU thread): the cpu front end turns the report
// into a tide::Error right away, and the GPU path records it as an async KernelError.

#include <cstdint>
#include <string>

#include "tide/macros.h"

namespace tide::kernels {

struct IndexError {
  int64_t position = -1;  // where in the index tensor (flattened); -1: no error
  int64_t value = 0;      // the offending index
  int64_t bound = 0;      // valid indices are [0, bound)

  TIDE_HOST_DEVICE bool found() const { return position >= 0; }
  /// Keeps the error with the smallest position, so reports do not depend on thread timing.
  TIDE_HOST_DEVICE void merge(const IndexError& o) {
    if (o.found() && (!found() || o.position < position)) *this = o;
  }
};

/// Which kernel found a bad index; selects the message (and travels in GPU error records).
/// AdvancedIndex: an index tensor of Python's x[i] or index_put_ (aux: the dim it indexes);
/// Take: take's and put_'s flat indices (aux unused); DimIndex: gather's and scatter's indices
/// along `aux`, SliceIndex: index_add_'s and index_copy_'s, which, as torch's, do not count from
/// the end (torch raises RuntimeError for the first two and IndexError for the others).
enum class IndexErrorKind : int32_t {
  IndexSelect = 1,
  NllLossTarget = 2,
  AdvancedIndex = 3,
  Take = 4,
  DimIndex = 5,
  SliceIndex = 6
};

/// Whether a negative index of this kind counts from the end (index_wrap's lower bound is -size
/// or 0).
TIDE_HOST_DEVICE inline bool negative_indices_wrap(IndexErrorKind kind) {
  return kind == IndexErrorKind::AdvancedIndex || kind == IndexErrorKind::Take;
}

/// The message a bad index produces, the same on every device: `aux` is index_select's and
/// AdvancedIndex's dim or nll_loss's ignore_index.
std::string index_error_message(IndexErrorKind kind, const IndexError& error, int64_t aux);

}  // namespace tide::kernels
