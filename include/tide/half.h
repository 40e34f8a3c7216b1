#pragma once
// 16-bit floating point storage types: IEEE half (Float16) and bfloat16 (BFloat16).
// Arithmetic happens in float; these only store. The conversions are plain integer code,
// so host and device compilers produce identical bits (round to nearest even).

#include <cstdint>
#include <cstring>

#include "tide/macros.h"

namespace tide {

namespace detail {
TIDE_HOST_DEVICE inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}
TIDE_HOST_DEVICE inline float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}
}  // namespace detail

struct Half {
  uint16_t x = 0;
  Half() = default;
  struct from_bits_t {};
  TIDE_HOST_DEVICE constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  TIDE_HOST_DEVICE Half(float f) : x(from_float(f)) {}
  TIDE_HOST_DEVICE operator float() const { return to_float(x); }

  TIDE_HOST_DEVICE static uint16_t from_float(float f) {
    uint32_t u = detail::float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t abs = u & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or nan
      return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
    }
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow → inf
    if (abs < 0x38800000u) {  // subnormal half (or zero)
      // value = mant24 * 2^(exp-150) and the half subnormal unit is 2^-24, so the
      // half mantissa is mant24 >> (126 - exp), rounded to nearest even. A carry into
      // bit 10 correctly produces the smallest normal.
      if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
      uint32_t exp = abs >> 23;
      uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
      uint32_t drop = 126u - exp;
      uint32_t kept = mant >> drop;
      uint32_t rem = mant & ((1u << drop) - 1u);
      uint32_t halfway = 1u << (drop - 1u);
      if (rem > halfway || (rem == halfway && (kept & 1u))) ++kept;
      return static_cast<uint16_t>(sign | kept);
    }
    // normal: rebias exponent (127 → 15) and round mantissa from 23 to 10 bits
    uint32_t r = abs - 0x38000000u;
    uint32_t kept = r >> 13;
    uint32_t rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (kept & 1u))) ++kept;
    return static_cast<uint16_t>(sign | kept);
  }

  TIDE_HOST_DEVICE static float to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0) {
      if (mant == 0) return detail::bits_float(sign);
      // subnormal: value = mant * 2^-24
      float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
    if (exp == 31) return detail::bits_float(sign | 0x7f800000u | (mant << 13));
    return detail::bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
  }
};

struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  struct from_bits_t {};
  TIDE_HOST_DEVICE constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  TIDE_HOST_DEVICE BFloat16(float f) : x(from_float(f)) {}
  TIDE_HOST_DEVICE operator float() const { return detail::bits_float(static_cast<uint32_t>(x) << 16); }

  TIDE_HOST_DEVICE static uint16_t from_float(float f) {
    uint32_t u = detail::float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet nan
    uint32_t rounding_bias = 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>((u + rounding_bias) >> 16);
  }
};

}  // namespace tide
