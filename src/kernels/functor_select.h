#pragma once
// Which element functor an op uses for a dtype: chosen here once, for the cpu loops and the GPU
// launchers alike, so both compute with the same functor (DESIGN.md decision 6).

#include <optional>
#include <type_traits>

#include "kernels/convert.h"
#include "kernels/cpu/elementwise_kernels.h"
#include "kernels/functors.h"
#include "kernels/special_functors.h"
#include "tide/error.h"
#include "tide/scalar.h"

namespace tide::kernels {

template <class T>
inline constexpr bool is_float_type_v = std::is_floating_point_v<T> || is_reduced_float<T>::value;
/// The integer dtypes but bool (shifts).
template <class T>
inline constexpr bool is_int_type_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// Calls f with the functor for `op` over compute type compute_t<T>: PlainAddOp when alpha is 1
/// (a plain vectorizable add), logical bool arithmetic, true division on floats only.
template <class T, class F>
void with_binary_functor(BinaryOp op, const Scalar& alpha, const F& f) {
  using C = compute_t<T>;
  constexpr bool kBoolT = std::is_same_v<T, bool>;
  switch (op) {
    case BinaryOp::Add:
      if constexpr (kBoolT) {
        f(BoolAddOp{alpha.to_bool()});
      } else if (alpha.to_double() == 1.0) {
        f(PlainAddOp<C>{});
      } else {
        f(AddOp<C>{alpha.to<C>()});
      }
      return;
    case BinaryOp::Sub:
      if constexpr (!kBoolT) {
        f(SubOp<C>{alpha.to<C>()});
        return;
      }
      break;
    case BinaryOp::Mul:
      if constexpr (kBoolT) {
        f(BoolMulOp{});
      } else {
        f(MulOp<C>{});
      }
      return;
    case BinaryOp::Div:
      if constexpr (is_float_type_v<T>) {
        f(DivOp<C>{});
        return;
      }
      break;
    case BinaryOp::Pow: f(PowOp<C>{}); return;
    case BinaryOp::Maximum: f(MaximumOp<C>{}); return;
    case BinaryOp::Minimum: f(MinimumOp<C>{}); return;
    case BinaryOp::Eq: f(EqOp<C>{}); return;
    case BinaryOp::Ne: f(NeOp<C>{}); return;
    case BinaryOp::Lt: f(LtOp<C>{}); return;
    case BinaryOp::Le: f(LeOp<C>{}); return;
    case BinaryOp::Gt: f(GtOp<C>{}); return;
    case BinaryOp::Ge: f(GeOp<C>{}); return;
    // @generated begin binary-functors (scripts/gen_ops.py from src/ops/ops.yaml: `dtypes`)
    case BinaryOp::Atan2:
      if constexpr (is_float_type_v<T>) return f(Atan2Op<C>{});
      break;
    case BinaryOp::LerpScalar:
      if constexpr (is_float_type_v<T>) return f(LerpScalarOp<C>{alpha.to<C>()});
      break;
    case BinaryOp::ThresholdBackward:
      if constexpr (!std::is_same_v<T, bool>) return f(ThresholdBackwardOp<C>{convert<C>(alpha.to<T>())});
      break;
    case BinaryOp::Fmod:
      if constexpr (!std::is_same_v<T, bool>) return f(FmodOp<C>{});
      break;
    case BinaryOp::Remainder:
      if constexpr (!std::is_same_v<T, bool>) return f(RemainderOp<C>{});
      break;
    case BinaryOp::FloorDivide:
      if constexpr (!std::is_same_v<T, bool>) return f(FloorDivideOp<C>{});
      break;
    case BinaryOp::Fmax: return f(FmaxOp<C>{});
    case BinaryOp::Fmin: return f(FminOp<C>{});
    case BinaryOp::Hypot:
      if constexpr (is_float_type_v<T>) return f(HypotOp<C>{});
      break;
    case BinaryOp::Logaddexp:
      if constexpr (is_float_type_v<T>) return f(LogaddexpOp<C>{});
      break;
    case BinaryOp::Copysign:
      if constexpr (is_float_type_v<T>) return f(CopysignOp<C>{});
      break;
    case BinaryOp::BitwiseAnd:
      if constexpr (std::is_integral_v<T>) return f(BitwiseAndOp<C>{});
      break;
    case BinaryOp::BitwiseOr:
      if constexpr (std::is_integral_v<T>) return f(BitwiseOrOp<C>{});
      break;
    case BinaryOp::BitwiseXor:
      if constexpr (std::is_integral_v<T>) return f(BitwiseXorOp<C>{});
      break;
    case BinaryOp::BitwiseLeftShift:
      if constexpr (is_int_type_v<T>) return f(BitwiseLeftShiftOp<C>{});
      break;
    case BinaryOp::BitwiseRightShift:
      if constexpr (is_int_type_v<T>) return f(BitwiseRightShiftOp<C>{});
      break;
    case BinaryOp::LogicalAnd: return f(LogicalAndOp<C>{});
    case BinaryOp::LogicalOr: return f(LogicalOrOp<C>{});
    case BinaryOp::LogicalXor: return f(LogicalXorOp<C>{});
    case BinaryOp::ClampMin: return f(ClampMinOp<C>{});
    case BinaryOp::ClampMax: return f(ClampMaxOp<C>{});
    case BinaryOp::DivTrunc:
      if constexpr (!std::is_same_v<T, bool>) return f(DivTruncOp<C>{});
      break;
    case BinaryOp::Xlogy:
      if constexpr (is_float_type_v<T>) return f(XlogyOp<C>{});
      break;
    case BinaryOp::Logaddexp2:
      if constexpr (is_float_type_v<T>) return f(Logaddexp2Op<C>{});
      break;
    case BinaryOp::Heaviside: return f(HeavisideOp<C>{});
    case BinaryOp::Gcd:
      if constexpr (is_int_type_v<T>) return f(GcdOp<C>{});
      break;
    case BinaryOp::Lcm:
      if constexpr (is_int_type_v<T>) return f(LcmOp<C>{});
      break;
    case BinaryOp::Nextafter:
      if constexpr (is_float_type_v<T>) return f(NextafterOp<C>{});
      break;
    // @generated end binary-functors
  }
  TIDE_INTERNAL_ASSERT(false, "binary op ", static_cast<int>(op), " has no kernel for this dtype");
}

/// pow(a, e) for the exponents torch special-cases (same results as its kernels, much cheaper
/// than std::pow): calls f with the unary functor and returns true, or returns false.
template <class T, class F>
bool with_pow_scalar_functor(double e, const F& f) {
  using C = compute_t<T>;
  if constexpr (is_float_type_v<T>) {
    if (e == 2) return f(SquareOp<C>{}), true;
    if (e == 3) return f(CubeOp<C>{}), true;
    if (e == 0.5) return f(SqrtOp<C>{}), true;
    if (e == -0.5) return f(RsqrtOp<C>{}), true;
    if (e == -1) return f(ReciprocalOp<C>{}), true;
    if (e == -2) return f(InverseSquareOp<C>{}), true;
  } else if constexpr (!std::is_same_v<T, bool>) {
    if (e == 2) return f(SquareOp<C>{}), true;
  }
  return false;
}

/// Calls f with the functor for `op` over compute_t<T>; raises an internal error for a dtype the
/// front end should have refused (e.g. exp of an integer tensor).
template <class T, class F>
void with_unary_functor(UnaryOp op, const F& f) {
  using C = compute_t<T>;
  switch (op) {
    // @generated begin unary-functors (scripts/gen_ops.py from src/ops/ops.yaml: `dtypes`)
    case UnaryOp::Neg:
      if constexpr (!std::is_same_v<T, bool>) return f(NegOp<C>{});
      break;
    case UnaryOp::Abs: return f(AbsOp<C>{});
    case UnaryOp::Exp:
      if constexpr (is_float_type_v<T>) return f(ExpOp<C>{});
      break;
    case UnaryOp::Log:
      if constexpr (is_float_type_v<T>) return f(LogOp<C>{});
      break;
    case UnaryOp::Sqrt:
      if constexpr (is_float_type_v<T>) return f(SqrtOp<C>{});
      break;
    case UnaryOp::Relu:
      if constexpr (!std::is_same_v<T, bool>) return f(ReluOp<C>{});
      break;
    case UnaryOp::Sigmoid:
      if constexpr (is_float_type_v<T>) return f(SigmoidOp<C>{});
      break;
    case UnaryOp::Tanh:
      if constexpr (is_float_type_v<T>) return f(TanhOp<C>{});
      break;
    case UnaryOp::Sin:
      if constexpr (is_float_type_v<T>) return f(SinOp<C>{});
      break;
    case UnaryOp::Cos:
      if constexpr (is_float_type_v<T>) return f(CosOp<C>{});
      break;
    case UnaryOp::Tan:
      if constexpr (is_float_type_v<T>) return f(TanOp<C>{});
      break;
    case UnaryOp::Asin:
      if constexpr (is_float_type_v<T>) return f(AsinOp<C>{});
      break;
    case UnaryOp::Acos:
      if constexpr (is_float_type_v<T>) return f(AcosOp<C>{});
      break;
    case UnaryOp::Atan:
      if constexpr (is_float_type_v<T>) return f(AtanOp<C>{});
      break;
    case UnaryOp::Sinh:
      if constexpr (is_float_type_v<T>) return f(SinhOp<C>{});
      break;
    case UnaryOp::Cosh:
      if constexpr (is_float_type_v<T>) return f(CoshOp<C>{});
      break;
    case UnaryOp::Asinh:
      if constexpr (is_float_type_v<T>) return f(AsinhOp<C>{});
      break;
    case UnaryOp::Acosh:
      if constexpr (is_float_type_v<T>) return f(AcoshOp<C>{});
      break;
    case UnaryOp::Atanh:
      if constexpr (is_float_type_v<T>) return f(AtanhOp<C>{});
      break;
    case UnaryOp::Exp2:
      if constexpr (is_float_type_v<T>) return f(Exp2Op<C>{});
      break;
    case UnaryOp::Expm1:
      if constexpr (is_float_type_v<T>) return f(Expm1Op<C>{});
      break;
    case UnaryOp::Log2:
      if constexpr (is_float_type_v<T>) return f(Log2Op<C>{});
      break;
    case UnaryOp::Log10:
      if constexpr (is_float_type_v<T>) return f(Log10Op<C>{});
      break;
    case UnaryOp::Log1p:
      if constexpr (is_float_type_v<T>) return f(Log1pOp<C>{});
      break;
    case UnaryOp::Rsqrt:
      if constexpr (is_float_type_v<T>) return f(RsqrtOp<C>{});
      break;
    case UnaryOp::Reciprocal:
      if constexpr (is_float_type_v<T>) return f(ReciprocalOp<C>{});
      break;
    case UnaryOp::Erf:
      if constexpr (is_float_type_v<T>) return f(ErfOp<C>{});
      break;
    case UnaryOp::Erfc:
      if constexpr (is_float_type_v<T>) return f(ErfcOp<C>{});
      break;
    case UnaryOp::Erfinv:
      if constexpr (is_float_type_v<T>) return f(ErfinvOp<C>{});
      break;
    case UnaryOp::Sign: return f(SignOp<C>{});
    case UnaryOp::Sgn: return f(SgnOp<C>{});
    case UnaryOp::Floor:
      if constexpr (!std::is_same_v<T, bool>) return f(FloorOp<C>{});
      break;
    case UnaryOp::Ceil:
      if constexpr (!std::is_same_v<T, bool>) return f(CeilOp<C>{});
      break;
    case UnaryOp::Round:
      if constexpr (!std::is_same_v<T, bool>) return f(RoundOp<C>{});
      break;
    case UnaryOp::Trunc:
      if constexpr (!std::is_same_v<T, bool>) return f(TruncOp<C>{});
      break;
    case UnaryOp::Frac:
      if constexpr (is_float_type_v<T>) return f(FracOp<C>{});
      break;
    case UnaryOp::Square:
      if constexpr (!std::is_same_v<T, bool>) return f(SquareOp<C>{});
      break;
    case UnaryOp::BitwiseNot:
      if constexpr (std::is_integral_v<T>) return f(BitwiseNotOp<C>{});
      break;
    case UnaryOp::Lgamma:
      if constexpr (is_float_type_v<T>) return f(LgammaOp<C>{});
      break;
    case UnaryOp::Digamma:
      if constexpr (is_float_type_v<T>) return f(DigammaOp<C>{});
      break;
    case UnaryOp::Trigamma:
      if constexpr (is_float_type_v<T>) return f(TrigammaOp<C>{});
      break;
    case UnaryOp::Sinc:
      if constexpr (is_float_type_v<T>) return f(SincOp<C>{});
      break;
    case UnaryOp::Gelu:
      if constexpr (is_float_type_v<T>) return f(GeluOp<C>{});
      break;
    case UnaryOp::GeluDerivative:
      if constexpr (is_float_type_v<T>) return f(GeluDerivativeOp<C>{});
      break;
    // @generated end unary-functors
  }
  TIDE_INTERNAL_ASSERT(false, "unary op ", static_cast<int>(op), " has no kernel for this dtype");
}

/// Calls f with the functor for `op` over compute_t<T>; `param` is the op's Scalar argument
/// (lerp's weight), in the compute type.
template <class T, class F>
void with_ternary_functor(TernaryOp op, [[maybe_unused]] const Scalar& param,
                          [[maybe_unused]] const F& f) {
  using C [[maybe_unused]] = compute_t<T>;
  switch (op) {
    // @generated begin ternary-functors (scripts/gen_ops.py from src/ops/ops.yaml: `dtypes`)
    case TernaryOp::Lerp:
      if constexpr (is_float_type_v<T>) return f(LerpOp<C>{});
      break;
    case TernaryOp::ClampTensor: return f(ClampTensorOp<C>{});
    case TernaryOp::Addcmul:
      if constexpr (!std::is_same_v<T, bool>) return f(AddcmulOp<C>{param.to<C>()});
      break;
    case TernaryOp::Addcdiv:
      if constexpr (is_float_type_v<T>) return f(AddcdivOp<C>{param.to<C>()});
      break;
    // @generated end ternary-functors
  }
  TIDE_INTERNAL_ASSERT(false, "ternary op ", static_cast<int>(op), " has no kernel for this dtype");
}

/// The scalar operand of a binary op in the compute type: comparisons round it to the tensor's
/// dtype first (torch wraps it as a tensor of that dtype); arithmetic reads it in the compute
/// type (torch's opmath scalar).
template <class T>
compute_t<T> binary_scalar_operand(BinaryOp op, const Scalar& s) {
  return is_comparison(op) ? convert<compute_t<T>>(s.to<T>()) : s.to<compute_t<T>>();
}

/// A clamp functor over compute_t<T> from optional bounds.
template <class T>
ClampOp<compute_t<T>> clamp_functor(const std::optional<Scalar>& lo, const std::optional<Scalar>& hi) {
  using C = compute_t<T>;
  return ClampOp<C>{lo ? lo->to<C>() : C{}, hi ? hi->to<C>() : C{}, lo.has_value(), hi.has_value()};
}

}  // namespace tide::kernels
