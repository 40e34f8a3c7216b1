// GPU launcher of the ternary stub (the op table's pointwise ops over three tensors: lerp):
// the cpu kernel's functor (kernels/functor_select.h), run by launch_elementwise. Its own
// translation unit, so each pointwise family's instantiations compile in parallel.

#include "kernels/cuda/elementwise.cuh"
#include "kernels/cuda/elementwise_kernels.h"
#include "kernels/functor_select.h"

namespace tide::kernels::cuda {

void ternary_kernel(kernels::TernaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                    const Tensor& c, const Scalar& param) {
  TIDE_INTERNAL_ASSERT(a.dtype() == out.dtype() && b.dtype() == out.dtype() &&
                       c.dtype() == out.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::with_ternary_functor<T>(op, param, [&](const auto& f) {
      using Op = std::decay_t<decltype(f)>;
      launch_elementwise(TypeList<T, T, T, T>{}, ComputeIn<T, T, Op>{f}, out, a, b, c);
    });
  });
}

}  // namespace tide::kernels::cuda
