#pragma once
// Turning Philox words into numbers of a distribution, shared by the cpu loops and the CUDA
// kernels (TIDE_HOST_DEVICE) so every device produces the same values for one seed.
//
// Note [Random transforms]:
// - uniform: element i uses the 32-bit word i. The fraction u in [0, 1) keeps as many high
//   bits of the word as the dtype has mantissa digits: 24 for float32, 11 for float16, 8 for
//   bfloat16, and all 32 for float64 (float64 draws one word per element too, not two, to keep
//   one word per element for every dtype; so float64 uniforms have 32 random bits).
//   value = from + u * (to - from) is computed in double and rounded to the dtype once; a
//   value that rounds up to `to` becomes `from`, as torch's CUDA kernel does, so every value
//   lies in [from, to).
// - normal: Box-Muller on pairs. Elements 2j and 2j+1 use words 2j and 2j+1 (which share one
//   Philox block): u1 = (w[2j] + 1) / 2^32 in (0, 1], u2 = w[2j+1] / 2^32 in [0, 1),
//   r = sqrt(-2 ln u1); element 2j = r cos(2 pi u2), element 2j+1 = r sin(2 pi u2). Computed
//   in double, then mean + std * z rounded to the dtype once. GPUs use the CUDA library's log,
//   sin and cos, within 1-2 ulp of glibc's in double: a float64 normal may differ from the
//   cpu's in its last bits; in float32 or narrower only when a value lies within those ulps
//   of a rounding boundary. A last unpaired element uses its
//   pair's words anyway (the block holds them).
// - integers in [low, low + range): low + word % range when range <= 2^32. A wider range
//   needs 64 bits: element i then uses words 2(i%2) and 2(i%2)+1 (low, high) of block i/2, and
//   the draw reserves ceil(n/2) blocks instead of ceil(n/4).

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/convert.h"
#include "tide/half.h"
#include "tide/macros.h"

namespace tide::kernels {

/// Random mantissa bits a dtype keeps from one 32-bit word (Note [Random transforms]).
template <class T>
TIDE_HOST_DEVICE constexpr int uniform_bits() {
  if constexpr (std::is_same_v<T, double>) {
    return 32;
  } else if constexpr (std::is_same_v<T, Half>) {
    return 11;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return 8;
  } else {
    return 24;
  }
}

/// a + b * c rounded twice, as the cpu computes it. nvcc contracts `a + b * c` into one fused
/// multiply-add by default (one rounding), which would change the last bit of some values on
/// GPUs; __dmul_rn and __dadd_rn are never contracted. (x86-64 g++ without -mfma does not
/// contract; a cpu build with FMA contraction would need -ffp-contract=off here.)
TIDE_HOST_DEVICE inline double add_mul_unfused(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, __dmul_rn(b, c));
#else
  return a + b * c;
#endif
}

/// A uniform value in [from, to) of type T from one word.
template <class T>
TIDE_HOST_DEVICE inline T uniform_from_word(uint32_t word, double from, double to) {
  constexpr int bits = uniform_bits<T>();
  const double u = static_cast<double>(word >> (32 - bits)) * (1.0 / static_cast<double>(1ull << bits));
  const T v = convert<T>(add_mul_unfused(from, u, to - from));
  return convert<double>(v) >= to ? convert<T>(from) : v;
}

/// mean + std * z in the dtype: one normal value from a standard one.
template <class T>
TIDE_HOST_DEVICE inline T normal_from_standard(double z, double mean, double std) {
  return convert<T>(add_mul_unfused(mean, std, z));
}

/// Two standard normal values from two words (Box-Muller).
TIDE_HOST_DEVICE inline void box_muller(uint32_t w0, uint32_t w1, double& z0, double& z1) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  constexpr double kInv2Pow32 = 1.0 / 4294967296.0;
  const double u1 = (static_cast<double>(w0) + 1.0) * kInv2Pow32;
  const double u2 = static_cast<double>(w1) * kInv2Pow32;
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = kTwoPi * u2;
  z0 = r * std::cos(theta);
  z1 = r * std::sin(theta);
}

}  // namespace tide::kernels
