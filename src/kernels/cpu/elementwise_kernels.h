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

// The kernels of the op table's `plan: binary` and `plan: unary_*` ops.
// @generated begin kernel-enums (scripts/gen_ops.py from src/ops/ops.yaml)
enum class BinaryOp : int8_t { Add, Sub, Mul, Div, Pow, Maximum, Minimum, Eq, Ne, Lt, Le, Gt, Ge };
enum class UnaryOp : int8_t { Neg, Abs, Exp, Log, Sqrt, Relu, Sigmoid, Tanh, Gelu, GeluDerivative };
// @generated end kernel-enums

/// Comparisons write bool; every other binary op writes the compute dtype.
inline bool is_comparison(BinaryOp op) { return op >= BinaryOp::Eq; }

/// out = a op b (Add/Sub: a ± alpha * b). a and b share one dtype and are broadcast to out's
/// shape; out has that dtype too, or bool for comparisons. out may be a or b (in place).
void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha = 1);

/// out = a op s, or s op a when scalar_first. The scalar is captured in the functor, never
/// materialized; arithmetic reads it in the compute type (torch's opmath scalar), comparisons
/// first round it to a's dtype (torch casts the wrapped number to the common dtype).
void binary_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                          bool scalar_first, const Scalar& alpha = 1);

/// out = op(a); out and a share the dtype and shape.
void unary_kernel(UnaryOp op, const Tensor& out, const Tensor& a);

/// out = clamp(a, lo, hi) with NaN kept; out and a share the dtype and shape.
void clamp_kernel(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo,
                  const std::optional<Scalar>& hi);

/// out = cond ? a : b; cond is bool, a and b have out's dtype, all broadcast to out's shape.
void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace tide::kernels
