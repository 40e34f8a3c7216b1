// where(condition, a, b): torch's promotion of a and b (Scalars as wrapped numbers), all three
// broadcast together; the condition must be bool.

#include "kernels/stubs.h"
#include "kernels/cpu/elementwise_kernels.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise_layout.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "ops/type_promotion.h"
#include "tide/ops.h"

namespace tide {
namespace {

/// A Scalar branch as a 0-dim tensor of the result dtype (broadcast with stride 0).
Tensor scalar_operand(const Scalar& s, Dtype dtype, Device device) {
  Tensor t = detail::make_empty({}, dtype, device);
  t.fill_(s);
  return t;
}

/// A tensor branch in the result dtype on the op's device (a 0-dim cpu tensor may be elsewhere).
Tensor tensor_operand(const Tensor& t, Dtype dtype, Device device) {
  if (t.device() != device) return t.to(device, dtype);
  return t.dtype() == dtype ? t : t.to(dtype);
}

Tensor where_impl(const Tensor& cond, const Tensor* a, const Scalar& as, const Tensor* b,
                  const Scalar& bs) {
  const char* where = "where";
  detail::check_defined(cond, where, "condition");
  if (a) detail::check_defined(*a, where, "input");
  if (b) detail::check_defined(*b, where, "other");
  TIDE_CHECK(cond.dtype() == kBool, "[where] where expected condition to be a boolean tensor, "
             "but got a tensor with dtype ", detail::torch_type_name(cond.dtype()),
             "; compare first (e.g. x > 0) or convert with .to(kBool)");
  Device device = a && b ? detail::common_device({&cond, a, b}, where)
                  : a    ? detail::common_device({&cond, a}, where)
                         : detail::common_device({&cond, b}, where);
  Dtype dtype = a && b ? detail::result_type(*a, *b)
                : a    ? detail::result_type(*a, bs)
                       : detail::result_type(*b, as);
  DimVector shape = cond.shape();
  if (a) shape = detail::broadcast_shapes(shape, a->shape(), where);
  if (b) shape = detail::broadcast_shapes(shape, b->shape(), where);

  Tensor c = cond.device() == device ? cond : cond.to(device);
  Tensor ta = a ? tensor_operand(*a, dtype, device) : scalar_operand(as, dtype, device);
  Tensor tb = b ? tensor_operand(*b, dtype, device) : scalar_operand(bs, dtype, device);
  Tensor out = detail::empty_pointwise(shape, dtype, device, {&cond, a, b});
  detail::run_kernel(device, "where", kernels::where_stub, out, detail::broadcast_to(c, shape),
                     detail::broadcast_to(ta, shape), detail::broadcast_to(tb, shape));
  return out;
}

}  // namespace

namespace detail {

Tensor plain_where(const Tensor& condition, const Tensor& a, const Tensor& b) {
  return where_impl(condition, &a, Scalar(), &b, Scalar());
}
Tensor plain_where(const Tensor& condition, const Tensor& a, Scalar b) {
  return where_impl(condition, &a, Scalar(), nullptr, b);
}
Tensor plain_where(const Tensor& condition, Scalar a, const Tensor& b) {
  return where_impl(condition, nullptr, a, &b, Scalar());
}

}  // namespace detail

}  // namespace tide
