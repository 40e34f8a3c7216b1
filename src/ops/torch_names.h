#pragma once
// torch's ScalarType names ("Long", "Float"), for error messages that keep torch's wording.

#include "tide/dtype.h"

namespace tide::detail {

/// The name torch prints for a dtype in "not implemented for 'Long'" style messages.
inline const char* torch_type_name(Dtype d) {
  switch (d) {
    case Dtype::Bool: return "Bool";
    case Dtype::UInt8: return "Byte";
    case Dtype::Int32: return "Int";
    case Dtype::Int64: return "Long";
    case Dtype::Float16: return "Half";
    case Dtype::BFloat16: return "BFloat16";
    case Dtype::Float32: return "Float";
    case Dtype::Float64: return "Double";
  }
  return "?";
}

}  // namespace tide::detail
