// GPU launchers of unary, clamp and where: the functors the cpu kernels use
// (kernels/functor_select.h), run by launch_elementwise.

#include <type_traits>

#include "kernels/cuda/elementwise.cuh"
#include "kernels/cuda/elementwise_kernels.h"
#include "kernels/functor_select.h"

namespace tide::kernels::cuda {

void unary_kernel(kernels::UnaryOp op, const Tensor& out, const Tensor& a) {
  TIDE_INTERNAL_ASSERT(out.dtype() == a.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::with_unary_functor<T>(op, [&](auto f) {
      // float64 asin: one element per thread. Two of its software routines in flight spill
      // registers (scripts/cuda-resources), and float64 math, not memory, bounds it, so the
      // wider access gains nothing. (Capping every float64 op instead made exp2 spill.)
      constexpr int kMaxWidth = std::is_same_v<decltype(f), AsinOp<double>> ? 1 : 0;
      launch_elementwise<kMaxWidth>(TypeList<T, T>{}, ComputeIn<T, T, decltype(f)>{f}, out, a);
    });
  });
}

void clamp_kernel(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo,
                  const std::optional<Scalar>& hi) {
  TIDE_INTERNAL_ASSERT(out.dtype() == a.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto f = kernels::clamp_functor<T>(lo, hi);
    launch_elementwise(TypeList<T, T>{}, ComputeIn<T, T, decltype(f)>{f}, out, a);
  });
}

void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b) {
  TIDE_INTERNAL_ASSERT(cond.dtype() == kBool && a.dtype() == out.dtype() &&
                       b.dtype() == out.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // On the storage type, as the cpu: a select needs no conversion.
    launch_elementwise(TypeList<T, bool, T, T>{}, kernels::WhereOp<T>{}, out, cond, a, b);
  });
}

}  // namespace tide::kernels::cuda
