#pragma once
// Dtype: the element type of a tensor, with torch's names and promotion rules.

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "tide/half.h"

namespace tide {

enum class Dtype : int8_t { Bool, UInt8, Int32, Int64, Float16, BFloat16, Float32, Float64 };
inline constexpr Dtype kBool = Dtype::Bool;
inline constexpr Dtype kUInt8 = Dtype::UInt8;
inline constexpr Dtype kInt32 = Dtype::Int32;
inline constexpr Dtype kInt64 = Dtype::Int64;
inline constexpr Dtype kFloat16 = Dtype::Float16;
inline constexpr Dtype kBFloat16 = Dtype::BFloat16;
inline constexpr Dtype kFloat32 = Dtype::Float32;
inline constexpr Dtype kFloat64 = Dtype::Float64;
inline constexpr int kNumDtypes = 8;

/// Bytes per element.
size_t element_size(Dtype dtype);
/// torch's name without the module: "float32", "int64", "bool".
const char* name(Dtype dtype);
std::ostream& operator<<(std::ostream& os, Dtype dtype);

inline bool is_floating_point(Dtype d) {
  return d == kFloat16 || d == kBFloat16 || d == kFloat32 || d == kFloat64;
}
inline bool is_integral(Dtype d, bool include_bool) {
  return d == kUInt8 || d == kInt32 || d == kInt64 || (include_bool && d == kBool);
}

/// torch.promote_types: the smallest dtype both a and b convert to without losing category.
Dtype promote_types(Dtype a, Dtype b);

/// Maps a C++ element type to its Dtype.
template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr Dtype value = kBool; };
template <> struct dtype_of<uint8_t> { static constexpr Dtype value = kUInt8; };
template <> struct dtype_of<int32_t> { static constexpr Dtype value = kInt32; };
template <> struct dtype_of<int64_t> { static constexpr Dtype value = kInt64; };
template <> struct dtype_of<Half> { static constexpr Dtype value = kFloat16; };
template <> struct dtype_of<BFloat16> { static constexpr Dtype value = kBFloat16; };
template <> struct dtype_of<float> { static constexpr Dtype value = kFloat32; };
template <> struct dtype_of<double> { static constexpr Dtype value = kFloat64; };
template <class T> inline constexpr Dtype dtype_v = dtype_of<T>::value;

/// A type tag for dispatch: `dispatch_dtype(d, [&](auto tag) { using T = typename decltype(tag)::type; })`.
template <class T> struct TypeTag { using type = T; };

/// Calls f(TypeTag<T>{}) with the C++ type of `dtype`. A plain switch, no macros (habit 12).
template <class F>
decltype(auto) dispatch_dtype(Dtype dtype, F&& f) {
  switch (dtype) {
    case Dtype::Bool: return f(TypeTag<bool>{});
    case Dtype::UInt8: return f(TypeTag<uint8_t>{});
    case Dtype::Int32: return f(TypeTag<int32_t>{});
    case Dtype::Int64: return f(TypeTag<int64_t>{});
    case Dtype::Float16: return f(TypeTag<Half>{});
    case Dtype::BFloat16: return f(TypeTag<BFloat16>{});
    case Dtype::Float32: return f(TypeTag<float>{});
    case Dtype::Float64: return f(TypeTag<double>{});
  }
  __builtin_unreachable();
}

}  // namespace tide
