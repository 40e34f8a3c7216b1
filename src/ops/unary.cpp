// Unary elementwise front ends: neg, abs, relu keep the dtype; exp, log, sqrt, sigmoid, tanh
// are float ops (integer and bool inputs give float32, as torch); clamp promotes with its
// bounds (int tensor clamped to 0.5 is float32, as torch).

#include "autograd/hooks.h"
#include "kernels/stubs.h"
#include "kernels/cpu/elementwise_kernels.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/op_common.h"
#include "ops/type_promotion.h"
#include "tide/ops.h"

namespace tide {
namespace {

using kernels::UnaryOp;

Tensor same_dtype_op(UnaryOp op, const Tensor& a) {
  Tensor out = detail::make_empty(a.shape(), a.dtype(), a.device());
  detail::run_kernel(a.device(), "unary", kernels::unary_stub, op, out, a);
  return out;
}

/// Integer and bool inputs compute in the default dtype, as torch; the fresh conversion is
/// written in place.
Tensor float_op(UnaryOp op, const Tensor& a, const char* where) {
  detail::check_defined(a, where, "input");
  if (is_floating_point(a.dtype())) return same_dtype_op(op, a);
  Tensor out = a.to(get_default_dtype());
  detail::run_kernel(out.device(), where, kernels::unary_stub, op, out, out);
  return out;
}

}  // namespace

Tensor neg(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::neg(a);
  detail::check_defined(a, "neg", "input");
  TIDE_CHECK(a.dtype() != kBool,
             "[neg] Negation, the `-` operator, on a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  return same_dtype_op(UnaryOp::Neg, a);
}

Tensor abs(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::abs(a);
  detail::check_defined(a, "abs", "input");
  TIDE_CHECK(a.dtype() != kBool, "[abs] \"abs_cpu\" not implemented for 'Bool'; convert the "
             "tensor first, e.g. .to(tide::kInt64), or use it as a mask directly");
  return same_dtype_op(UnaryOp::Abs, a);
}

Tensor relu(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::relu(a);
  detail::check_defined(a, "relu", "input");
  TIDE_CHECK(a.dtype() != kBool, "[relu] Boolean inputs not supported for relu");
  return same_dtype_op(UnaryOp::Relu, a);
}

Tensor exp(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::exp(a);
  return float_op(UnaryOp::Exp, a, "exp");
}
Tensor log(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::log(a);
  return float_op(UnaryOp::Log, a, "log");
}
Tensor sqrt(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::sqrt(a);
  return float_op(UnaryOp::Sqrt, a, "sqrt");
}
Tensor sigmoid(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::sigmoid(a);
  return float_op(UnaryOp::Sigmoid, a, "sigmoid");
}
Tensor tanh(const Tensor& a) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::tanh(a);
  return float_op(UnaryOp::Tanh, a, "tanh");
}

Tensor clamp(const Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::clamp(a, min, max);
  detail::check_defined(a, "clamp", "input");
  TIDE_CHECK(min || max, "[clamp] torch.clamp: At least one of 'min' or 'max' must not be None");
  Dtype dtype = a.dtype();
  if (!is_floating_point(dtype)) {
    detail::ResultTypeState state;
    detail::update_result_type(state, a);
    if (min) detail::update_result_type(state, *min);
    if (max) detail::update_result_type(state, *max);
    dtype = detail::result_type(state);
  }
  TIDE_CHECK(dtype != kBool, "[clamp] clamp is not supported for bool tensors with bool bounds; "
             "give integer bounds (the result is then int64) or convert the tensor first");
  if (dtype != a.dtype()) {
    Tensor out = a.to(dtype);
    detail::run_kernel(out.device(), "clamp", kernels::clamp_stub, out, out, min, max);
    return out;
  }
  Tensor out = detail::make_empty(a.shape(), dtype, a.device());
  detail::run_kernel(out.device(), "clamp", kernels::clamp_stub, out, a, min, max);
  return out;
}

}  // namespace tide
