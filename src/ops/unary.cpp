// Unary elementwise plans (the op table's unary_same and unary_float: neg, abs, relu keep the
// dtype; exp, log, sqrt, sigmoid, tanh are float ops, integer and bool inputs give float32, as
// torch) and clamp, which promotes with its bounds (int tensor clamped to 0.5 is float32).

#include "kernels/stubs.h"
#include "kernels/cpu/elementwise_kernels.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise_plans.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/type_promotion.h"
#include "tide/ops.h"

namespace tide {

namespace detail {
namespace {

Tensor same_dtype_op(kernels::UnaryOp op, const Tensor& self, const char* where) {
  Tensor out = make_empty(self.shape(), self.dtype(), self.device());
  run_kernel(self.device(), where, kernels::unary_stub, op, out, self);
  return out;
}

}  // namespace

Tensor unary_same(kernels::UnaryOp op, const Tensor& self, const char* where,
                  const char* bool_error) {
  check_defined(self, where, "input");
  TIDE_CHECK(bool_error == nullptr || self.dtype() != kBool, "[", where, "] ", bool_error);
  return same_dtype_op(op, self, where);
}

/// The fresh conversion of an integer or bool input is written in place.
Tensor unary_float(kernels::UnaryOp op, const Tensor& self, const char* where) {
  check_defined(self, where, "input");
  if (is_floating_point(self.dtype())) return same_dtype_op(op, self, where);
  Tensor out = self.to(get_default_dtype());
  run_kernel(out.device(), where, kernels::unary_stub, op, out, out);
  return out;
}

Tensor plain_clamp(const Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max) {
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

}  // namespace detail

}  // namespace tide
