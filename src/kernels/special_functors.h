#pragma once
// Element functors of issue 25's later pointwise ops: the gamma family (lgamma, digamma and the
// trigamma digamma's derivative needs), sinc, xlogy, logaddexp2, heaviside, gcd, lcm,
// nextafter and trunc division. Host and device code alike (DESIGN.md decision 6), each the
// formula torch 1.13's cpu kernel uses, so the goldens agree to the last bit where they can.

#include <cmath>
#include <type_traits>

#include "kernels/functors.h"
#include "tide/macros.h"

namespace tide::kernels {

template <class T>
inline constexpr T kPi = static_cast<T>(3.14159265358979323846);

template <class T> struct LgammaOp {
  TIDE_HOST_DEVICE T operator()(T v) const { return std::lgamma(v); }
};

/// digamma: torch's calc_digamma (Cephes' psi): reflection below 0, recurrence up to 10, then
/// the asymptotic series. digamma(+-0) = -+inf and a negative integer gives NaN (C++ and SciPy).
template <class T> struct DigammaOp {
  TIDE_HOST_DEVICE T operator()(T x) const {
    if (x == T(0)) return std::copysign(T(INFINITY), -x);
    // below 0: digamma(1 - x) - pi / tan(pi r), r the fractional part of x (more accurate
    // than tan(pi x) for |x| > 1); the term is added last, where torch's recursion adds it
    T reflection = 0;
    if (x < T(0)) {
      if (x == std::trunc(x)) return T(NAN);
      reflection = kPi<T> / std::tan(kPi<T> * (x - std::trunc(x)));
      x = T(1) - x;
    }
    T result = 0;
    while (x < T(10)) {
      result -= T(1) / x;
      x += T(1);
    }
    if (x == T(10)) return (result + T(2.25175258906672110764)) - reflection;
    T y = 0;
    if (x < T(1.0e17)) {
      const T z = T(1) / (x * x);
      T p = T(8.33333333333333333333E-2);
      p = p * z + T(-2.10927960927960927961E-2);
      p = p * z + T(7.57575757575757575758E-3);
      p = p * z + T(-4.16666666666666666667E-3);
      p = p * z + T(3.96825396825396825397E-3);
      p = p * z + T(-8.33333333333333333333E-3);
      p = p * z + T(8.33333333333333333333E-2);
      y = z * p;
    }
    return (result + std::log(x) - (T(0.5) / x) - y) - reflection;
  }
};

/// trigamma, digamma's derivative (torch's calc_trigamma): reflection below 1/2, six recurrence
/// steps, then the asymptotic series.
template <class T> struct TrigammaOp {
  TIDE_HOST_DEVICE T operator()(T x) const {
    T sign = 1, result = 0;
    if (x < T(0.5)) {
      sign = -1;
      const T s = std::sin(kPi<T> * x);
      result -= (kPi<T> * kPi<T>) / (s * s);
      x = T(1) - x;
    }
    for (int i = 0; i < 6; ++i) {
      result += T(1) / (x * x);
      x += T(1);
    }
    const T ixx = T(1) / (x * x);
    result += (T(1) + T(1) / (T(2) * x) +
               ixx * (T(1) / T(6) - ixx * (T(1) / T(30) - ixx * (T(1) / T(42))))) / x;
    return sign * result;
  }
};

/// sin(pi x) / (pi x), 1 at 0.
template <class T> struct SincOp {
  TIDE_HOST_DEVICE T operator()(T v) const {
    if (v == T(0)) return T(1);
    const T product = kPi<T> * v;
    return std::sin(product) / product;
  }
};

/// x log(y), 0 where x is 0 (unless y is NaN).
template <class T> struct XlogyOp {
  TIDE_HOST_DEVICE T operator()(T x, T y) const {
    if (is_nan(y)) return T(NAN);
    if (x == T(0)) return T(0);
    return x * std::log(y);
  }
};

/// log2(2^a + 2^b) without overflow.
template <class T> struct Logaddexp2Op {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if (std::isinf(a) && a == b) return a;
    const T m = a > b ? a : b;
    const T d = a > b ? b - a : a - b;
    return m + std::log1p(std::exp2(d)) * T(1.44269504088896340736);
  }
};

/// heaviside(x, values): 0 below zero, 1 above, `values` at zero (NaN counts as below).
template <class T> struct HeavisideOp {
  TIDE_HOST_DEVICE T operator()(T x, T values) const {
    return x == T(0) ? values : static_cast<T>(x > T(0));
  }
};

template <class T>
TIDE_HOST_DEVICE inline T int_abs(T v) {
  if constexpr (std::is_signed_v<T>) return v < T(0) ? static_cast<T>(-v) : v; else return v;
}

/// Euclid's algorithm on |a| and |b|; gcd(0, 0) = 0.
template <class T>
TIDE_HOST_DEVICE inline T gcd_of(T a, T b) {
  a = int_abs(a);
  b = int_abs(b);
  while (a != T(0)) {
    const T c = a;
    a = static_cast<T>(b % a);
    b = c;
  }
  return b;
}
template <class T> struct GcdOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return gcd_of(a, b); }
};
template <class T> struct LcmOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    const T g = gcd_of(a, b);
    return g == T(0) ? T(0) : int_abs(static_cast<T>(a / g * b));
  }
};

template <class T> struct NextafterOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const { return std::nextafter(a, b); }
};

/// div(rounding_mode="trunc"): the quotient rounded toward zero; an integer division by zero
/// gives 0 instead of trapping, as fmod's (torch raises ZeroDivisionError on cpu).
template <class T> struct DivTruncOp {
  TIDE_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return std::trunc(a / b);
    } else {
      return b == T(0) ? T(0) : static_cast<T>(a / b);
    }
  }
};

}  // namespace tide::kernels
