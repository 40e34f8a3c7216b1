// The binary elementwise plan: the front end of add, sub, mul, div, pow, maximum, minimum and
// the comparisons, with their Scalar, in-place and out forms (the op table's `plan: binary`; the
// per-op front ends are generated into ops/generated_front_ends.cpp).
//
// Note [Binary front end]: every form funnels into binary_op(), which
//   1. finds the common device (torch's cross-device error) and the result dtype
//      (Note [Type promotion]) from the operands as given;
//   2. computes the broadcast shape and checks an in-place/out destination against it;
//   3. reads a 0-dim tensor as a number when it meets a tensor with dims, or lives on another
//      device (torch's cpu-scalar rule), so it is never expanded or copied;
//   4. converts tensor operands to the compute dtype only when they differ from it, and writes
//      straight into such a fresh conversion when it already has the output's shape;
//   5. calls one kernel; a destination of another (castable) dtype receives a copy.

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise_layout.h"
#include "ops/elementwise_plans.h"
#include "ops/op_common.h"
#include "ops/torch_names.h"
#include "ops/type_promotion.h"
#include "tide/ops.h"

namespace tide {
namespace {

using kernels::BinaryOp;

using Arg = detail::BinaryArg;

using detail::Dest;

void check_alpha(Dtype dtype, const Scalar& alpha, const char* where) {
  TIDE_CHECK(!alpha.is_bool() || dtype == kBool, "[", where,
             "] Boolean alpha only supported for Boolean results.");
  TIDE_CHECK(is_floating_point(dtype) || !alpha.is_floating_point(), "[", where,
             "] For integral input tensors, argument alpha must not be a floating point number.");
}

bool arg_is_bool(const Arg& a) {
  return a.tensor ? a.tensor->dtype() == kBool : a.scalar.is_bool();
}

void check_sub(const Arg& a, const Arg& b, const char* where) {
  TIDE_CHECK(!(arg_is_bool(a) && arg_is_bool(b)), "[", where,
             "] Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
             "`^` or `logical_xor()` operator instead.");
  TIDE_CHECK(!arg_is_bool(a) && !arg_is_bool(b), "[", where,
             "] Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

Dtype promote(const Arg& a, const Arg& b) {
  if (a.tensor && b.tensor) return detail::result_type(*a.tensor, *b.tensor);
  if (a.tensor) return detail::result_type(*a.tensor, b.scalar);
  return detail::result_type(*b.tensor, a.scalar);
}

/// A 0-dim tensor is read as a number off the op's device (a cpu scalar joining a cuda op),
/// or on cpu next to a tensor with dims. A 0-dim tensor on the op's GPU stays a (broadcast)
/// tensor operand: reading it would copy it to the host and wait for its stream on every op.
bool read_as_scalar(const Tensor& t, const Arg& other, Device device) {
  if (t.dim() != 0) return false;
  if (t.device() != device) return true;
  return device.is_cpu() && other.tensor && other.tensor->dim() > 0;
}

/// `t` in dtype `dt`: `t` itself, or a fresh conversion kept alive in `storage`.
const Tensor* to_compute(const Tensor& t, Dtype dt, Tensor& storage) {
  if (t.dtype() == dt) return &t;
  storage = t.to(dt);
  return &storage;
}

Tensor& binary_op(BinaryOp op, const Arg& a, const Arg& b, const Scalar& alpha, Dest dest,
                  Tensor& target, const char* where) {
  if (a.tensor) detail::check_defined(*a.tensor, where, "self");
  if (b.tensor) detail::check_defined(*b.tensor, where, "other");
  if (dest == Dest::Out) detail::check_defined(target, where, "out");

  // 1. device and dtypes
  Device device = a.tensor && b.tensor ? detail::common_device({a.tensor, b.tensor}, where)
                  : a.tensor           ? a.tensor->device()
                                       : b.tensor->device();
  if (dest != Dest::New) {
    TIDE_CHECK(target.device() == device, "[", where,
               "] Expected all tensors to be on the same device, but found at least two devices, ",
               device, " and ", target.device(), "!");
  }
  Dtype compute = promote(a, b);
  if (op == BinaryOp::Add || op == BinaryOp::Sub) check_alpha(compute, alpha, where);
  if (op == BinaryOp::Sub) check_sub(a, b, where);
  // torch's heaviside neither promotes nor casts: operands and out have one dtype
  TIDE_CHECK(op != BinaryOp::Heaviside ||
                 (a.tensor->dtype() == b.tensor->dtype() &&
                  (dest == Dest::New || target.dtype() == a.tensor->dtype())),
             "[", where, "] heaviside is not yet implemented for tensors with different dtypes.");
  // True division (and the table's other `result: float` ops) of integers gives the default
  // dtype, as torch.
  if (kernels::computes_in_float(op) && !is_floating_point(compute)) compute = get_default_dtype();
  TIDE_CHECK(kernels::accepts(op, compute), "[", where, "] \"", where, "\" not implemented for '",
             detail::torch_type_name(compute), "'; convert the operands to a dtype the op supports");
  if (op == BinaryOp::Pow && a.tensor && !b.tensor) {
    TIDE_CHECK(!(is_integral(a.tensor->dtype(), true) && !b.scalar.is_floating_point() &&
                 b.scalar.to_int64() < 0),
               "[", where, "] Integers to negative integer powers are not allowed.");
  }
  const Dtype out_dtype = kernels::is_comparison(op) ? kBool : compute;

  // 2. shape and destination
  DimVector out_shape = !(a.tensor && b.tensor) ? (a.tensor ? a.tensor->shape() : b.tensor->shape())
                        : a.tensor->shape() == b.tensor->shape()
                            ? a.tensor->shape()
                            : detail::broadcast_shapes(a.tensor->shape(), b.tensor->shape(), where);
  Tensor result;
  if (dest != Dest::New) {
    detail::check_destination(dest, target, out_shape, out_dtype, where);
    if (a.tensor && !a.tensor->is_same(target)) detail::check_no_partial_overlap(target, *a.tensor, where);
    if (b.tensor) detail::check_no_partial_overlap(target, *b.tensor, where);
    if (target.dtype() == out_dtype) result = target;
  }

  // 3-4. operands in the compute dtype (pointers: no refcount traffic on the common path)
  const bool a_scalar = a.tensor && read_as_scalar(*a.tensor, b, device);
  const bool b_scalar = b.tensor && read_as_scalar(*b.tensor, a, device);
  const bool a_num = !a.tensor || a_scalar, b_num = !b.tensor || b_scalar;
  TIDE_INTERNAL_ASSERT(!(a_num && b_num));
  Tensor a_conv, b_conv;
  const Tensor* pa = a_num ? nullptr : to_compute(*a.tensor, compute, a_conv);
  const Tensor* pb = b_num ? nullptr : to_compute(*b.tensor, compute, b_conv);
  if (!result.defined() && ((!pa || pa->is_contiguous()) && (!pb || pb->is_contiguous()))) {
    // write straight into a fresh conversion that already has the output's shape and dtype
    // (and layout: a conversion keeps its operand's, and contiguous operands give contiguous
    // outputs)
    for (Tensor* fresh : {&a_conv, &b_conv}) {
      if (fresh->defined() && fresh->shape() == out_shape && fresh->dtype() == out_dtype) {
        result = *fresh;
        break;
      }
    }
    if (!result.defined()) result = detail::make_empty(out_shape, out_dtype, device);
  } else if (!result.defined()) {
    // laid out as the operands are (Note [Memory formats] in tensor/memory_format.cpp)
    result = detail::empty_pointwise_strided(
        out_shape, out_dtype, device, {a_num ? nullptr : a.tensor, b_num ? nullptr : b.tensor});
  }
  if (a_num || b_num) {
    const Scalar s = a_num ? (a.tensor ? a.tensor->item() : a.scalar)
                           : (b.tensor ? b.tensor->item() : b.scalar);
    detail::run_kernel(device, where, kernels::binary_scalar_stub, op, result,
                       a_num ? *pb : *pa, s, /*scalar_first=*/a_num, alpha);
  } else {
    Tensor a_view, b_view;
    if (pa->shape() != out_shape) pa = &(a_view = detail::broadcast_to(*pa, out_shape));
    if (pb->shape() != out_shape) pb = &(b_view = detail::broadcast_to(*pb, out_shape));
    detail::run_kernel(device, where, kernels::binary_stub, op, result, *pa, *pb, alpha);
  }

  return detail::deliver(dest, target, result);  // 5.
}

}  // namespace

namespace detail {

Tensor binary(BinaryOp op, const BinaryArg& a, const BinaryArg& b, const Scalar& alpha,
              const char* where) {
  Tensor out;
  binary_op(op, a, b, alpha, Dest::New, out, where);
  return out;
}

Tensor& binary_inplace(BinaryOp op, Tensor& self, const BinaryArg& other, const Scalar& alpha,
                       const char* where) {
  return binary_op(op, self, other, alpha, Dest::InPlace, self, where);
}

Tensor& binary_out(BinaryOp op, Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha, const char* where) {
  return binary_op(op, a, b, alpha, Dest::Out, out, where);
}

}  // namespace detail

}  // namespace tide
