// The cpu binary kernel with one operand a scalar: every BinaryOp through with_binary_functor,
// with the pow fast paths.

#include "kernels/cpu/elementwise_kernels.h"

#include "kernels/cpu/elementwise_paths.h"
#include "kernels/functor_select.h"

namespace tide::kernels {

void binary_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                          bool scalar_first, const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(out.dtype() == (is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if (op == BinaryOp::Pow && !scalar_first &&
        with_pow_scalar_functor<T>(s.to_double(), [&](auto f) {
          run_unary<T, T>(out, a, Loaded<T, T, decltype(f)>{f});
        })) {
      return;
    }
    const C sv = binary_scalar_operand<T>(op, s);
    with_binary_functor<T>(op, alpha, [&](const auto& f) {
      using R = std::decay_t<decltype(f(C{}, C{}))>;
      if constexpr (std::is_same_v<R, bool>) {
        binary_with_scalar<T, bool>(out, a, sv, scalar_first, f);
      } else {
        binary_with_scalar<T, T>(out, a, sv, scalar_first, f);
      }
    });
  });
}

}  // namespace tide::kernels
