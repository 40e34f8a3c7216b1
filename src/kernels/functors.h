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

/// torch's lerp: exact at both ends (weight 0 gives start, 1 gives end).
template <class T>
TIDE_HOST_DEVICE inline T lerp(T start, T end, T weight) {
  const T w = weight < T(0) ? -weight : weight;
  return w < T(0.5) ? start + weight * (end - start) : end - (end - start) * (T(1) - weight);
}
template <class T> struct LerpOp {
  TIDE_HOST_DEVICE T operator()(T a, T b, T w) const { return lerp(a, b, w); }
};
template <class T> struct LerpScalarOp {
  T weight;
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return lerp(a, b, weight); }
};
/// torch's threshold_backward (relu's derivative): the gradient where the input is above the
/// threshold, else 0; a NaN input passes its gradient, as torch's.
template <class T> struct ThresholdBackwardOp {
  T threshold;
  TIDE_HOST_DEVICE T operator()(T grad, T x) const { return x <= threshold ? T(0) : grad; }
};
/// fmod (C's, the sign of a) and remainder (Python's, the sign of b); an integer division by
/// zero gives 0 instead of trapping (torch raises ZeroDivisionError on cpu).
template <class T> struct FmodOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fmod(a, b);
    } else {
      return b == T(0) ? T(0) : static_cast<T>(a % b);
    }
  }
};
template <class T> struct RemainderOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      T m = std::fmod(a, b);
      if (m != T(0) && ((b < T(0)) != (m < T(0)))) m += b;
      return m;
    } else {
      if (b == T(0)) return T(0);
      T m = static_cast<T>(a % b);
      if constexpr (std::is_signed_v<T>) {
        if (m != 0 && ((m < 0) != (b < 0))) m = static_cast<T>(m + b);
      }
      return m;
    }
  }
};
/// floor(a / b), computed as torch does (fmod first, so exact quotients stay exact).
template <class T> struct FloorDivideOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (b == T(0)) return a / b;
      const T mod = std::fmod(a, b);
      T div = (a - mod) / b;
      if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
      if (div == T(0)) return std::copysign(T(0), a / b);
      T floordiv = std::floor(div);
      if (div - floordiv > T(0.5)) floordiv += T(1);
      return floordiv;
    } else {
      if (b == T(0)) return T(0);
      if constexpr (std::is_signed_v<T>) {
        if ((a < 0) != (b < 0)) {
          const T q = static_cast<T>(a / b);
          return static_cast<T>(a % b != 0 ? q - 1 : q);
        }
      }
      return static_cast<T>(a / b);
    }
  }
};
/// fmax/fmin ignore NaN (the other operand wins), unlike maximum/minimum.
template <class T> struct FmaxOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    return a > b ? a : b;
  }
};
template <class T> struct FminOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    return a < b ? a : b;
  }
};
template <class T> struct HypotOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return std::hypot(a, b); }
};
template <class T> struct LogaddexpOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if (a == b && (a == T(INFINITY) || a == T(-INFINITY))) return a;
    const T m = a > b ? a : b;
    const T d = a > b ? b - a : a - b;
    return m + std::log1p(std::exp(d));
  }
};
template <class T> struct CopysignOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return std::copysign(a, b); }
};
template <class T> struct BitwiseAndOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
template <class T> struct BitwiseOrOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
template <class T> struct BitwiseXorOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
/// Shifts by a negative amount or by the width or more: 0 (left), the sign (right), as torch.
template <class T> struct BitwiseLeftShiftOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    constexpr T kBits = static_cast<T>(sizeof(T) * 8);
    if ((std::is_signed_v<T> && b < T(0)) || b >= kBits) return T(0);
    return static_cast<T>(static_cast<U>(a) << b);
  }
};
template <class T> struct BitwiseRightShiftOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    constexpr T kBits = static_cast<T>(sizeof(T) * 8);
    if ((std::is_signed_v<T> && b < T(0)) || b >= kBits) return static_cast<T>(a >> (kBits - 1));
    return static_cast<T>(a >> b);
  }
};
template <class T> struct LogicalAndOp {
  TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a != T(0) && b != T(0); }
};
template <class T> struct LogicalOrOp {
  TIDE_HOST_DEVICE bool operator()(T a, T b) const { return a != T(0) || b != T(0); }
};
template <class T> struct LogicalXorOp {
  TIDE_HOST_DEVICE bool operator()(T a, T b) const { return (a != T(0)) != (b != T(0)); }
};
/// clamp with tensor bounds, and its one-sided forms: NaN in any operand gives NaN (torch).
template <class T> struct ClampTensorOp {
  TIDE_HOST_DEVICE T operator()(T v, T lo, T hi) const {
    if (is_nan(v)) return v;
    if (is_nan(lo)) return lo;
    if (is_nan(hi)) return hi;
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
  }
};
template <class T> struct ClampMinOp {
  TIDE_HOST_DEVICE T operator()(T v, T lo) const {
    if (is_nan(v)) return v;
    if (is_nan(lo)) return lo;
    return v < lo ? lo : v;
  }
};
template <class T> struct ClampMaxOp {
  TIDE_HOST_DEVICE T operator()(T v, T hi) const {
    if (is_nan(v)) return v;
    if (is_nan(hi)) return hi;
    return v > hi ? hi : v;
  }
};
/// addcmul and addcdiv: self + value * t1 * t2 and self + value * t1 / t2, in torch's order.
template <class T> struct AddcmulOp {
  T value;
  TIDE_HOST_DEVICE T operator()(T a, T b, T c) const { return static_cast<T>(a + value * b * c); }
};
template <class T> struct AddcdivOp {
  T value;
  TIDE_HOST_DEVICE T operator()(T a, T b, T c) const { return a + value * b / c; }
};
template <class T> struct Atan2Op {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return std::atan2(a, b); }
};

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
template <class T> struct SinOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::sin(v); } };
template <class T> struct CosOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::cos(v); } };
template <class T> struct TanOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::tan(v); } };
template <class T> struct AsinOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::asin(v); } };
template <class T> struct AcosOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::acos(v); } };
template <class T> struct AtanOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::atan(v); } };
template <class T> struct SinhOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::sinh(v); } };
template <class T> struct CoshOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::cosh(v); } };
template <class T> struct AsinhOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::asinh(v); } };
template <class T> struct AcoshOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::acosh(v); } };
template <class T> struct AtanhOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::atanh(v); } };
template <class T> struct Exp2Op { TIDE_HOST_DEVICE T operator()(T v) const { return std::exp2(v); } };
template <class T> struct Expm1Op { TIDE_HOST_DEVICE T operator()(T v) const { return std::expm1(v); } };
template <class T> struct Log2Op { TIDE_HOST_DEVICE T operator()(T v) const { return std::log2(v); } };
template <class T> struct Log10Op { TIDE_HOST_DEVICE T operator()(T v) const { return std::log10(v); } };
template <class T> struct Log1pOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::log1p(v); } };
template <class T> struct ErfOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::erf(v); } };
template <class T> struct ErfcOp { TIDE_HOST_DEVICE T operator()(T v) const { return std::erfc(v); } };
/// erfinv: Giles' single-precision approximation ("Approximating the erfinv function", GPU
/// Computing Gems, 2011) refined by two Newton steps on erf, so float and double both reach
/// their precision; the same body on cpu and GPU. erfinv(+-1) = +-inf, outside [-1, 1] NaN.
template <class T> struct ErfinvOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if (is_nan(v) || v < T(-1) || v > T(1)) return T(NAN);
    if (v == T(1) || v == T(-1)) return v * T(INFINITY);
    const double x = static_cast<double>(v);
    double w = -std::log((1.0 - x) * (1.0 + x)), p;
    if (w < 5.0) {
      w -= 2.5;
      p = 2.81022636e-08;
      p = 3.43273939e-07 + p * w;
      p = -3.5233877e-06 + p * w;
      p = -4.39150654e-06 + p * w;
      p = 0.00021858087 + p * w;
      p = -0.00125372503 + p * w;
      p = -0.00417768164 + p * w;
      p = 0.246640727 + p * w;
      p = 1.50140941 + p * w;
    } else {
      w = std::sqrt(w) - 3.0;
      p = -0.000200214257;
      p = 0.000100950558 + p * w;
      p = 0.00134934322 + p * w;
      p = -0.00367342844 + p * w;
      p = 0.00573950773 + p * w;
      p = -0.0076224613 + p * w;
      p = 0.00943887047 + p * w;
      p = 1.00167406 + p * w;
      p = 2.83297682 + p * w;
    }
    double y = p * x;
    // Newton: erf(y) - x = 0, erf'(y) = 2/sqrt(pi) exp(-y^2)
    for (int i = 0; i < 2; ++i) y -= (std::erf(y) - x) / (1.1283791670955126 * std::exp(-y * y));
    return static_cast<T>(y);
  }
};
/// sign (and sgn, for real dtypes): -1, 0 or 1; NaN gives 0 and bool stays as it is (torch).
template <class T> struct SignOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_same_v<T, bool>) {
      return v;
    } else if constexpr (std::is_unsigned_v<T>) {
      return static_cast<T>(v > T(0));
    } else {
      return static_cast<T>((T(0) < v) - (v < T(0)));
    }
  }
};
template <class T> struct SgnOp : SignOp<T> {};
/// floor, ceil, trunc and round (half to even, as torch's nearbyint) keep integers as they are.
template <class T> struct FloorOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_floating_point_v<T>) return std::floor(v); else return v;
  }
};
template <class T> struct CeilOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_floating_point_v<T>) return std::ceil(v); else return v;
  }
};
template <class T> struct TruncOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_floating_point_v<T>) return std::trunc(v); else return v;
  }
};
template <class T> struct RoundOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_floating_point_v<T>) return std::nearbyint(v); else return v;
  }
};
template <class T> struct FracOp { TIDE_HOST_DEVICE T operator()(T v) const { return v - std::trunc(v); } };
template <class T> struct BitwiseNotOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if constexpr (std::is_same_v<T, bool>) return !v; else return static_cast<T>(~v);
  }
};
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
