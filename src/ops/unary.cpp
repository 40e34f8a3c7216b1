// Unary elementwise plans (the op table's unary_same and unary_float: neg, abs, relu keep the
// dtype; exp, log, sqrt, sigmoid, tanh, sin, ... are float ops, integer and bool inputs give
// float32, as torch), their in-place and out= forms, and clamp, which promotes with its bounds (int tensor clamped to 0.5 is float32).

#include "kernels/stubs.h"
#include "kernels/cpu/elementwise_kernels.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise_layout.h"
#include "ops/elementwise_plans.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "ops/type_promotion.h"
#include "tide/ops.h"

namespace tide {

namespace detail {
namespace {

/// torch's "\"floor\" not implemented for 'Bool'" for a dtype the kernel has no functor for.
void check_accepts(kernels::UnaryOp op, Dtype dtype, const char* where) {
  TIDE_CHECK(kernels::accepts(op, dtype), "[", where, "] \"", where, "\" not implemented for '",
             torch_type_name(dtype), "'; convert the tensor to a dtype the op supports first");
}

Tensor same_dtype_op(kernels::UnaryOp op, const Tensor& self, const char* where) {
  Tensor out = empty_pointwise(self.shape(), self.dtype(), self.device(), {&self});
  run_kernel(self.device(), where, kernels::unary_stub, op, out, self);
  return out;
}

}  // namespace

Tensor unary_same(kernels::UnaryOp op, const Tensor& self, const char* where,
                  const char* bool_error) {
  check_defined(self, where, "input");
  TIDE_CHECK(bool_error == nullptr || self.dtype() != kBool, "[", where, "] ", bool_error);
  check_accepts(op, self.dtype(), where);
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

namespace {

/// The in-place and out= forms: self's result (in the default dtype for a to-float op on an
/// integer input) written into `target`, which must have self's shape, a dtype the result may
/// be cast to and self's device; a target of another dtype receives a copy.
Tensor& unary_into(kernels::UnaryOp op, Tensor& target, const Tensor& self, bool to_float,
                   bool inplace, const char* where, const char* bool_error) {
  check_defined(self, where, "input");
  if (!inplace) check_defined(target, where, "out");
  TIDE_CHECK(bool_error == nullptr || self.dtype() != kBool, "[", where, "] ", bool_error);
  TIDE_CHECK(target.device() == self.device(), "[", where,
             "] Expected all tensors to be on the same device, but found at least two devices, ",
             self.device(), " and ", target.device(), "!");
  TIDE_CHECK(target.shape() == self.shape(), "[", where, "] out with shape ",
             bracket_shape(target.shape()), " doesn't match the input's shape ",
             bracket_shape(self.shape()),
             "; allocate out with the input's shape (out is never resized)");
  const Dtype compute =
      to_float && !is_floating_point(self.dtype()) ? get_default_dtype() : self.dtype();
  check_accepts(op, compute, where);
  // torch casts the result of a to-float op into out; the others write their own dtype only
  TIDE_CHECK(to_float || target.dtype() == compute, "[", where, "] Found dtype ",
             torch_type_name(target.dtype()), " but expected ", torch_type_name(compute),
             "; give out the input's dtype");
  check_can_cast_to_output(compute, target.dtype(), where);
  check_no_internal_overlap(target, where);
  if (!inplace) check_no_partial_overlap(target, self, where);
  target.storage().bump_version();  // Note [Version counters]
  if (target.dtype() == compute && self.dtype() == compute) {
    run_kernel(self.device(), where, kernels::unary_stub, op, target, self);
    return target;
  }
  Tensor result = self.dtype() == compute ? same_dtype_op(op, self, where) : self.to(compute);
  if (self.dtype() != compute) run_kernel(result.device(), where, kernels::unary_stub, op, result, result);
  target.copy_(result);
  return target;
}

}  // namespace

Tensor& unary_inplace(kernels::UnaryOp op, Tensor& self, bool to_float, const char* where,
                      const char* bool_error) {
  return unary_into(op, self, self, to_float, /*inplace=*/true, where, bool_error);
}

Tensor& unary_out(kernels::UnaryOp op, Tensor& out, const Tensor& self, bool to_float,
                  const char* where, const char* bool_error) {
  return unary_into(op, out, self, to_float, /*inplace=*/false, where, bool_error);
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
  Tensor out = detail::empty_pointwise(a.shape(), dtype, a.device(), {&a});
  detail::run_kernel(out.device(), "clamp", kernels::clamp_stub, out, a, min, max);
  return out;
}

/// In place: the bounds' promotion must be castable to self's dtype (an int tensor clamped to
/// 0.5 is refused, as torch).
Tensor& plain_clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  detail::check_defined(self, "Tensor::clamp_", "input");
  TIDE_CHECK(min || max, "[Tensor::clamp_] torch.clamp: At least one of 'min' or 'max' must not "
             "be None");
  detail::ResultTypeState state;
  detail::update_result_type(state, self);
  if (min) detail::update_result_type(state, *min);
  if (max) detail::update_result_type(state, *max);
  detail::check_can_cast_to_output(detail::result_type(state), self.dtype(), "Tensor::clamp_");
  TIDE_CHECK(self.dtype() != kBool, "[Tensor::clamp_] clamp is not supported for bool tensors; "
             "convert the tensor first");
  detail::check_no_internal_overlap(self, "Tensor::clamp_");
  self.storage().bump_version();  // Note [Version counters]
  detail::run_kernel(self.device(), "Tensor::clamp_", kernels::clamp_stub, self, self, min, max);
  return self;
}

}  // namespace detail

}  // namespace tide
