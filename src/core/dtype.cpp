#include "tide/dtype.h"

namespace tide {

size_t element_size(Dtype dtype) {
  switch (dtype) {
    case Dtype::Bool:
    case Dtype::UInt8: return 1;
    case Dtype::Float16:
    case Dtype::BFloat16: return 2;
    case Dtype::Int32:
    case Dtype::Float32: return 4;
    case Dtype::Int64:
    case Dtype::Float64: return 8;
  }
  return 0;
}

const char* name(Dtype dtype) {
  switch (dtype) {
    case Dtype::Bool: return "bool";
    case Dtype::UInt8: return "uint8";
    case Dtype::Int32: return "int32";
    case Dtype::Int64: return "int64";
    case Dtype::Float16: return "float16";
    case Dtype::BFloat16: return "bfloat16";
    case Dtype::Float32: return "float32";
    case Dtype::Float64: return "float64";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, Dtype dtype) { return os << name(dtype); }

Dtype promote_types(Dtype a, Dtype b) {
  // torch's promotion table (c10/core/ScalarType.cpp), rows and columns in enum order:
  // b1 u1 i4 i8 f2 bf f4 f8. float16 with bfloat16 promotes to float32, as torch.
  constexpr Dtype b1 = kBool, u1 = kUInt8, i4 = kInt32, i8 = kInt64, f2 = kFloat16,
                  bf = kBFloat16, f4 = kFloat32, f8 = kFloat64;
  static constexpr Dtype table[kNumDtypes][kNumDtypes] = {
      /* b1 */ {b1, u1, i4, i8, f2, bf, f4, f8},
      /* u1 */ {u1, u1, i4, i8, f2, bf, f4, f8},
      /* i4 */ {i4, i4, i4, i8, f2, bf, f4, f8},
      /* i8 */ {i8, i8, i8, i8, f2, bf, f4, f8},
      /* f2 */ {f2, f2, f2, f2, f2, f4, f4, f8},
      /* bf */ {bf, bf, bf, bf, f4, bf, f4, f8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

}  // namespace tide
