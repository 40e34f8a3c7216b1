// The cpu binary kernel over two tensors: every BinaryOp through with_binary_functor.

#include "kernels/cpu/elementwise_kernels.h"

#include "kernels/cpu/elementwise_paths.h"
#include "kernels/functor_select.h"

namespace tide::kernels {

void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(a.dtype() == b.dtype());
  TIDE_INTERNAL_ASSERT(out.dtype() == (is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    with_binary_functor<T>(op, alpha, [&](const auto& f) {
      using R = std::decay_t<decltype(f(compute_t<T>{}, compute_t<T>{}))>;
      if constexpr (std::is_same_v<R, bool>) {
        binary_tensors<T, bool>(out, a, b, f);
      } else {
        binary_tensors<T, T>(out, a, b, f);
      }
    });
  });
}

}  // namespace tide::kernels
