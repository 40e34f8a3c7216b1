#include "kernels/index_error.h"

#include "tide/error.h"

namespace tide::kernels {

std::string index_error_message(IndexErrorKind kind, const IndexError& e, int64_t aux) {
  switch (kind) {
    case IndexErrorKind::IndexSelect:
      return detail::concat("[index_select] index out of range in self: index ", e.value,
                            " (at position ", e.position, " of index) is out of bounds for dimension ",
                            aux, " with size ", e.bound, "; indices must lie in [0, ", e.bound, ")");
    case IndexErrorKind::NllLossTarget:
      return detail::concat("[nll_loss] Target ", e.value, " is out of bounds. Class indices must lie "
                            "in [0, ", e.bound, ") for ", e.bound, " classes (or equal ignore_index ",
                            aux, "); found at position ", e.position, " of target");
    case IndexErrorKind::AdvancedIndex:
      return detail::concat("[index] index ", e.value, " is out of bounds for dimension ", aux,
                            " with size ", e.bound, " (at position ", e.position,
                            " of the index tensor); indices must lie in [-", e.bound, ", ",
                            e.bound, ")");
    case IndexErrorKind::DimIndex:
    case IndexErrorKind::SliceIndex:
      return detail::concat("[index] index ", e.value, " is out of bounds for dimension ", aux,
                            " with size ", e.bound, " (at position ", e.position,
                            " of index); indices must lie in [0, ", e.bound, ")");
    case IndexErrorKind::Take:
      return detail::concat("[take] out of range: tried to access index ", e.value,
                            " on a tensor of ", e.bound, " elements (at position ", e.position,
                            " of index); indices must lie in [-", e.bound, ", ", e.bound, ")");
  }
  return detail::concat("[kernel] index ", e.value, " out of bounds [0, ", e.bound, ") at position ",
                        e.position, " (unknown index error kind ", static_cast<int>(kind), ")");
}

}  // namespace tide::kernels
