// Note [Elementwise kernel paths]: every kernel first tries the flat path (all operands
// contiguous with out's shape): a plain parallel loop over raw pointers that the compiler
// vectorizes, with no ElementwiseIter built — this is what keeps a 1-element op cheap and a
// 16M-element op bandwidth bound. Anything else (broadcast, transposed, sliced) goes through
// ElementwiseIter, whose loops still take a contiguous or stride-0 fast path per inner run.

#include "kernels/cpu/elementwise_kernels.h"

#include "kernels/cpu/elementwise_paths.h"
#include "kernels/functor_select.h"

namespace tide::kernels {

void ternary_kernel(TernaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                    const Tensor& c, const Scalar& param) {
  TIDE_INTERNAL_ASSERT(a.dtype() == out.dtype() && b.dtype() == out.dtype() &&
                       c.dtype() == out.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    with_ternary_functor<T>(op, param, [&](const auto& f) {
      const Loaded<T, T, std::decay_t<decltype(f)>> g{f};
      if (same_geometry_contiguous(out, a) && same_geometry_contiguous(out, b) &&
          same_geometry_contiguous(out, c)) {
        T* o = static_cast<T*>(out.raw_data());
        const T* x = static_cast<const T*>(a.raw_data());
        const T* y = static_cast<const T*>(b.raw_data());
        const T* z = static_cast<const T*>(c.raw_data());
        parallel_for(0, out.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) o[i] = g(x[i], y[i], z[i]);
        });
        return;
      }
      auto it = ElementwiseIter::build({&out, &a, &b, &c});
      ternary_loop<T, T, T, T>(it, g);
    });
  });
}

void clamp_kernel(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo,
                  const std::optional<Scalar>& hi) {
  TIDE_INTERNAL_ASSERT(out.dtype() == a.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto f = clamp_functor<T>(lo, hi);
    run_unary<T, T>(out, a, Loaded<T, T, std::decay_t<decltype(f)>>{f});
  });
}

void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b) {
  TIDE_INTERNAL_ASSERT(cond.dtype() == kBool && a.dtype() == out.dtype() && b.dtype() == out.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const WhereOp<T> f{};
    if (same_geometry_contiguous(out, cond) && same_geometry_contiguous(out, a) &&
        same_geometry_contiguous(out, b)) {
      T* o = static_cast<T*>(out.raw_data());
      const bool* c = static_cast<const bool*>(cond.raw_data());
      const T* x = static_cast<const T*>(a.raw_data());
      const T* y = static_cast<const T*>(b.raw_data());
      parallel_for(0, out.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) o[i] = f(c[i], x[i], y[i]);
      });
      return;
    }
    auto it = ElementwiseIter::build({&out, &cond, &a, &b});
    ternary_loop<T, bool, T, T>(it, f);
  });
}

}  // namespace tide::kernels
