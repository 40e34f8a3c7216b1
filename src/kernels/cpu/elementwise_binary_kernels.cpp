// The cpu binary kernels' dtype dispatch: the loops are compiled by dtype family in their own
// files (Note [Binary kernels by dtype] in elementwise_binary_impl.h).

#include "kernels/cpu/elementwise_binary_dtype.h"

namespace tide::kernels {

void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(a.dtype() == b.dtype());
  TIDE_INTERNAL_ASSERT(out.dtype() == (is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    binary_kernel_of<typename decltype(tag)::type>(op, out, a, b, alpha);
  });
}

void binary_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                          bool scalar_first, const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(out.dtype() == (is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    binary_scalar_kernel_of<typename decltype(tag)::type>(op, out, a, s, scalar_first, alpha);
  });
}

}  // namespace tide::kernels
