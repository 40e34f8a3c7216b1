// The cpu unary kernel: every UnaryOp through with_unary_functor (kernels/functor_select.h).

#include "kernels/cpu/elementwise_kernels.h"

#include "kernels/cpu/elementwise_paths.h"
#include "kernels/functor_select.h"

namespace tide::kernels {

void unary_kernel(UnaryOp op, const Tensor& out, const Tensor& a) {
  TIDE_INTERNAL_ASSERT(out.dtype() == a.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    with_unary_functor<T>(op, [&](auto f) {
      run_unary<T, T>(out, a, Loaded<T, T, decltype(f)>{f});
    });
  });
}

}  // namespace tide::kernels
