// The failure paths of tensor/checked_size.h: messages are built here, only when a check fails.

#include "tensor/checked_size.h"

#include <string>

#include "tensor/tensor_internal.h"
#include "tide/error.h"

namespace tide::detail {
namespace {

// "[2, 3]", as torch prints sizes in its overflow messages.
std::string list_str(const DimVector& v) {
  std::string s = "[";
  for (int64_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

}  // namespace

void throw_negative_size(const DimVector& sizes, const char* where) {
  for (int64_t s : sizes) {
    TIDE_CHECK(s >= 0, "[", where, "] Trying to create tensor with negative dimension ", s, ": ",
               shape_str(sizes), "; every size must be >= 0");
  }
  TIDE_INTERNAL_ASSERT(false, "throw_negative_size called without a negative size");
}

void throw_numel_overflow(const DimVector& sizes, const char* where) {
  throw Error(concat("[", where, "] Storage size calculation overflowed with sizes=",
                     list_str(sizes), ": the number of elements does not fit in int64 (numel: "
                     "integer multiplication overflow); use smaller sizes"));
}

void throw_nbytes_overflow(const DimVector& sizes, size_t itemsize, const char* where) {
  throw Error(concat("[", where, "] Storage size calculation overflowed with sizes=",
                     list_str(sizes), " and ", itemsize, " bytes per element: the size in bytes "
                     "does not fit in int64; use smaller sizes or a smaller dtype"));
}

void throw_extent_overflow(const DimVector& sizes, const DimVector& strides, const char* where) {
  throw Error(concat("[", where, "] Storage size calculation overflowed with sizes=",
                     list_str(sizes), " and strides=", list_str(strides),
                     ": the storage the strides reach does not fit in int64; use smaller sizes "
                     "or strides"));
}

}  // namespace tide::detail
