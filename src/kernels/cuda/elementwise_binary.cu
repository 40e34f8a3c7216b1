// GPU launcher of binary (two tensors): the cpu kernel's choice of functor
// (kernels/functor_select.h), run by launch_elementwise. binary_scalar has its own file, so
// the two instantiate every BinaryOp in parallel.

#include <type_traits>

#include "kernels/cuda/elementwise.cuh"
#include "kernels/cuda/elementwise_kernels.h"
#include "kernels/functor_select.h"

namespace tide::kernels::cuda {

using kernels::BinaryOp;

void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(a.dtype() == b.dtype());
  TIDE_INTERNAL_ASSERT(out.dtype() == (kernels::is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::with_binary_functor<T>(op, alpha, [&](const auto& f) {
      using Op = std::decay_t<decltype(f)>;
      using Out = stored_t<T, Op>;
      launch_elementwise(TypeList<Out, T, T>{}, ComputeIn<T, Out, Op>{f}, out, a, b);
    });
  });
}

}  // namespace tide::kernels::cuda
