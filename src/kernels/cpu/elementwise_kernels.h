#pragma once
// The cpu kernels of the elementwise ops: one call per op with fully prepared tensors
// (Note [Op structure]). The front ends in src/ops/ have already checked devices, promoted
// dtypes, converted inputs to the compute dtype and broadcast them to the output's shape.
// Kernels dispatch on the dtype once, then run a functor from kernels/functors.h through the
// loops of kernels/cpu/elementwise.h; 16-bit floats compute in float (kernels::compute_t).

#include <cstdint>
#include <optional>

#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::kernels {

// The kernels of the op table's `plan: binary`, `plan: unary_*` and `plan: pointwise` ops.
// @generated begin kernel-enums (scripts/gen_ops.py from src/ops/ops.yaml)
enum class BinaryOp : int8_t {
  Add, Sub, Mul, Div, Pow, Maximum, Minimum, Atan2, LerpScalar, ThresholdBackward, Fmod, Remainder,
  FloorDivide, Fmax, Fmin, Hypot, Logaddexp, Copysign, BitwiseAnd, BitwiseOr, BitwiseXor,
  BitwiseLeftShift, BitwiseRightShift, ClampMin, ClampMax, DivTrunc, Xlogy, Logaddexp2, Heaviside,
  Gcd, Lcm, Nextafter, Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr, LogicalXor,
};
enum class UnaryOp : int8_t {
  Neg, Abs, Exp, Log, Sqrt, Relu, Sigmoid, Tanh, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh,
  Acosh, Atanh, Exp2, Expm1, Log2, Log10, Log1p, Rsqrt, Reciprocal, Erf, Erfc, Erfinv, Sign, Sgn,
  Floor, Ceil, Round, Trunc, Frac, Square, BitwiseNot, Lgamma, Digamma, Trigamma, Sinc, Gelu,
  GeluDerivative,
};
enum class TernaryOp : int8_t { Lerp, ClampTensor, Addcmul, Addcdiv };
/// `result: float`: integer and bool operands compute in the default dtype (true division).
inline bool computes_in_float(BinaryOp op) { return op == BinaryOp::Div || op == BinaryOp::Atan2 ||
      op == BinaryOp::Copysign || op == BinaryOp::Xlogy; }
/// Whether the kernel has a functor for dtype d (its entries' `dtypes`): the plans refuse
/// the others with torch's "not implemented for 'Long'" before any kernel runs.
inline bool accepts(UnaryOp op, Dtype d) {
  switch (op) {
    case UnaryOp::Neg:
    case UnaryOp::Relu:
    case UnaryOp::Floor:
    case UnaryOp::Ceil:
    case UnaryOp::Round:
    case UnaryOp::Trunc:
    case UnaryOp::Square:
      return d != kBool;
    case UnaryOp::Exp:
    case UnaryOp::Log:
    case UnaryOp::Sqrt:
    case UnaryOp::Sigmoid:
    case UnaryOp::Tanh:
    case UnaryOp::Sin:
    case UnaryOp::Cos:
    case UnaryOp::Tan:
    case UnaryOp::Asin:
    case UnaryOp::Acos:
    case UnaryOp::Atan:
    case UnaryOp::Sinh:
    case UnaryOp::Cosh:
    case UnaryOp::Asinh:
    case UnaryOp::Acosh:
    case UnaryOp::Atanh:
    case UnaryOp::Exp2:
    case UnaryOp::Expm1:
    case UnaryOp::Log2:
    case UnaryOp::Log10:
    case UnaryOp::Log1p:
    case UnaryOp::Rsqrt:
    case UnaryOp::Reciprocal:
    case UnaryOp::Erf:
    case UnaryOp::Erfc:
    case UnaryOp::Erfinv:
    case UnaryOp::Frac:
    case UnaryOp::Lgamma:
    case UnaryOp::Digamma:
    case UnaryOp::Trigamma:
    case UnaryOp::Sinc:
    case UnaryOp::Gelu:
    case UnaryOp::GeluDerivative:
      return is_floating_point(d);
    case UnaryOp::BitwiseNot:
      return is_integral(d, /*include_bool=*/true);
    default:
      return true;
  }
}
inline bool accepts(BinaryOp op, Dtype d) {
  switch (op) {
    case BinaryOp::ThresholdBackward:
    case BinaryOp::Fmod:
    case BinaryOp::Remainder:
    case BinaryOp::FloorDivide:
    case BinaryOp::DivTrunc:
      return d != kBool;
    case BinaryOp::Atan2:
    case BinaryOp::LerpScalar:
    case BinaryOp::Hypot:
    case BinaryOp::Logaddexp:
    case BinaryOp::Copysign:
    case BinaryOp::Xlogy:
    case BinaryOp::Logaddexp2:
    case BinaryOp::Nextafter:
      return is_floating_point(d);
    case BinaryOp::BitwiseAnd:
    case BinaryOp::BitwiseOr:
    case BinaryOp::BitwiseXor:
      return is_integral(d, /*include_bool=*/true);
    case BinaryOp::BitwiseLeftShift:
    case BinaryOp::BitwiseRightShift:
    case BinaryOp::Gcd:
    case BinaryOp::Lcm:
      return is_integral(d, /*include_bool=*/false);
    default:
      return true;
  }
}
inline bool accepts(TernaryOp op, Dtype d) {
  switch (op) {
    case TernaryOp::Addcmul:
      return d != kBool;
    case TernaryOp::Lerp:
    case TernaryOp::Addcdiv:
      return is_floating_point(d);
    default:
      return true;
  }
}
// @generated end kernel-enums

/// Comparisons write bool; every other binary op writes the compute dtype.
inline bool is_comparison(BinaryOp op) { return op >= BinaryOp::Eq; }

/// out = a op b (Add/Sub: a ± alpha * b). a and b share one dtype and are broadcast to out's
/// shape; out has that dtype too, or bool for comparisons. out may be a or b (in place).
void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha = 1);

/// out = a op s, or s op a when scalar_first. No tensor is made of the scalar (Note [Binary
/// kernels by dtype]); arithmetic reads it in the compute type (torch's opmath scalar),
/// comparisons first round it to a's dtype (torch casts the wrapped number to the common dtype).
void binary_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                          bool scalar_first, const Scalar& alpha = 1);

/// out = op(a); out and a share the dtype and shape.
void unary_kernel(UnaryOp op, const Tensor& out, const Tensor& a);

/// out = op(a, b, c) with the op's Scalar `param` (lerp: a + c * (b - a)); a, b and c have
/// out's dtype and are broadcast to its shape.
void ternary_kernel(TernaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                    const Tensor& c, const Scalar& param);

/// out = clamp(a, lo, hi) with NaN kept; out and a share the dtype and shape.
void clamp_kernel(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo,
                  const std::optional<Scalar>& hi);

/// out = cond ? a : b; cond is bool, a and b have out's dtype, all broadcast to out's shape.
void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace tide::kernels
