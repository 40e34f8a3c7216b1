#pragma once
// Element conversion between tide's element types, identical on host and device.
// 16-bit floats convert through float; anything to bool is "!= 0", as torch.

#include <cstdint>
#include <type_traits>

#include "tide/half.h"
#include "tide/macros.h"

namespace tide::kernels {

template <class T> struct is_reduced_float : std::false_type {};
template <> struct is_reduced_float<Half> : std::true_type {};
template <> struct is_reduced_float<BFloat16> : std::true_type {};

/// The type arithmetic on T is done in: float for 16-bit floats, T otherwise.
template <class T> struct compute_type { using type = T; };
template <> struct compute_type<Half> { using type = float; };
template <> struct compute_type<BFloat16> { using type = float; };
template <class T> using compute_t = typename compute_type<T>::type;

template <class To, class From>
TIDE_HOST_DEVICE inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_reduced_float<From>::value) {
      return static_cast<float>(v) != 0.0f;
    } else {
      return v != From(0);
    }
  } else if constexpr (std::is_same_v<To, uint8_t> && is_reduced_float<From>::value) {
    return convert<uint8_t>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, uint8_t> && std::is_floating_point_v<From>) {
    // A negative float -> uint8 is undefined behaviour: x86 g++ wraps, nvcc saturates.
    // Through int64 first, as c10's TypeCast, both wrap: -50.0 -> 206.
    return static_cast<uint8_t>(static_cast<int64_t>(v));
  } else if constexpr (is_reduced_float<From>::value) {
    return static_cast<To>(static_cast<float>(v));
  } else if constexpr (is_reduced_float<To>::value) {
    return To(static_cast<float>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace tide::kernels
