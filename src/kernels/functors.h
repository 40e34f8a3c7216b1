#pragma once
// Element functors: the one body of every elementwise op, compiled by g++ for the cpu loops and
// by nvcc for the GPU kernels (DESIGN.md decision 6), so numerics match across backends.
// Each takes and returns the compute type T (float for 16-bit floats, see convert.h); the
// loops convert at load and store. Comparisons return bool.

#include <cmath>
#include <type_traits>

#include "tide/macros.h"

namespace tide::kernels {

template <class T>
TIDE_HOST_DEVICE inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

template <class T> struct AddOp {
  T alpha;
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return a + alpha * b; }
};
/// alpha == 1: the common case, kept separate so the loop is a plain vectorizable add.
template <class T> struct PlainAddOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return a + b; }
};
template <class T> struct SubOp {
  T alpha;
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return a - alpha * b; }
};
template <class T> struct MulOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return a * b; }
};
template <class T> struct DivOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return a / b; }
};
template <class T> struct PowOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(std::pow(a, b));
    } else if constexpr (std::is_same_v<T, bool>) {
      return a || !b;
    } else {
      // integer power by squaring; negative exponents follow torch (0 unless |a| == 1)
      if constexpr (std::is_signed_v<T>) {
        if (b < 0) return a == 1 ? T(1) : a == T(-1) ? ((b & 1) ? T(-1) : T(1)) : T(0);
      }
      T result = 1, base = a;
      while (b) {
        if (b & 1) result = static_cast<T>(result * base);
        base = static_cast<T>(base * base);
        b = static_cast<T>(b >> 1);
      }
      return result;
    }
  }
};
/// maximum/minimum propagate NaN, as torch.
template <class T> struct MaximumOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if (is_nan(a) || is_nan(b)) return is_nan(a) ? a : b;
    return a > b ? a : b;
  }
};
template <class T> struct MinimumOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if (is_nan(a) || is_nan(b)) return is_nan(a) ? a : b;
    return a < b ? a : b;
  }
};

template <class T> struct EqOp { TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a == b; } };
template <class T> struct NeOp { TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a != b; } };
template <class T> struct LtOp { TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a < b; } };
template <class T> struct LeOp { TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a <= b; } };
template <class T> struct GtOp { TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a > b; } };
template <class T> struct GeOp { TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a >= b; } };

template <class T> struct WhereOp {
  TIDE_HOST_DEVICE T operator()(bool c, T a, T b) const { return c ? a : b; }
};
/// clamp(min, max); NaN stays NaN, and min > max yields max, as torch.
template <class T> struct ClampOp {
  T lo, hi;
  bool has_lo, has_hi;
  TIDE_HOST_DEVICE T operator()(T v) const {
    if (is_nan(v)) return v;
    if (has_lo && v < lo) v = lo;
    if (has_hi && v > hi) v = hi;
    return v;
  }
};

template <class T> struct NegOp { TIDE_HOST_DEVICE T operator()(T v) const { return -v; } };
template <class T> struct AbsOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
      return v;
    } else {
      return v < T(0) ? -v : v;
    }
  }
};
template <class T> struct ExpOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::exp(v); } };
template <class T> struct LogOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::log(v); } };
template <class T> struct SqrtOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::sqrt(v); } };
template <class T> struct ReluOp {
  TIDE_HOST_DEVICE T operator()(T v) const { return is_nan(v) ? v : (v > T(0) ? v : T(0)); }
};
template <class T> struct SigmoidOp {
  TIDE_HOST_DEVICE T operator()(T v) const { return T(1) / (T(1) + std::exp(-v)); }
};
template <class T> struct TanhOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::tanh(v); } };
/// Exact GELU, x Phi(x), Phi the standard normal cdf through erf (activations family).
template <class T> struct GeluOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    return v * T(0.5) * (T(1) + std::erf(v * T(0.70710678118654752440)));
  }
};
/// Exact GELU's derivative: Phi(x) + x phi(x).
template <class T> struct GeluDerivativeOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    const T cdf = T(0.5) * (T(1) + std::erf(v * T(0.70710678118654752440)));
    const T pdf = std::exp(T(-0.5) * v * v) * T(0.39894228040143267794);
    return cdf + v * pdf;
  }
};

/// pow(x, e) for the exponents torch special-cases (2, 3, 0.5, -0.5, -1, -2): same results as
/// torch's kernels, and much cheaper than std::pow.
template <class T> struct SquareOp { TIDE_HOST_DEVICE T operator()(T v) const { return static_cast<T>(v * v); } };
template <class T> struct CubeOp { TIDE_HOST_DEVICE T operator()(T v) const { return static_cast<T>(v * v * v); } };
template <class T> struct ReciprocalOp { TIDE_HOST_DEVICE T operator()(T v) const { return T(1) / v; } };
template <class T> struct InverseSquareOp {
  TIDE_HOST_DEVICE T operator()(T v) const { return T(1) / (v * v); }
};
template <class T> struct RsqrtOp { TIDE_HOST_DEVICE T operator()(T v) const { return T(1) / std::sqrt(v); } };

/// bool arithmetic is logical, as torch stores a + alpha * b != 0 and a * b != 0.
struct BoolAddOp {
  bool alpha;
  TIDE_HOST_DEVICE bool operator()(bool a, bool b) const { return a || (alpha && b); }
};
struct BoolMulOp {
  TIDE_HOST_DEVICE bool operator()(bool a, bool b) const { return a && b; }
};

}  // namespace tide::kernels
