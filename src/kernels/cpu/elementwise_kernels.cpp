// Note [Elementwise kernel paths]: every kernel first tries the flat path (all operands
// contiguous with out's shape): a plain parallel loop over raw pointers that the compiler
// vectorizes, with no ElementwiseIter built — this is what keeps a 1-element op cheap and a
// 16M-element op bandwidth bound. Anything else (broadcast, transposed, sliced) goes through
// ElementwiseIter, whose loops still take a contiguous or stride-0 fast path per inner run.

#include "kernels/cpu/elementwise_kernels.h"

#include <cmath>
#include <type_traits>

#include "kernels/convert.h"
#include "kernels/cpu/elementwise.h"
#include "kernels/cpu/parallel.h"
#include "kernels/functor_select.h"

namespace tide::kernels {
namespace {

bool same_geometry_contiguous(const Tensor& out, const Tensor& a) {
  return out.is_contiguous() && a.is_contiguous() && out.numel() == a.numel();
}

template <class Out, class A, class F>
void flat_unary(const Tensor& out, const Tensor& a, const F& f) {
  Out* o = static_cast<Out*>(out.raw_data());
  const A* x = static_cast<const A*>(a.raw_data());
  parallel_for(0, out.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
    Out* __restrict op = o + begin;
    const A* __restrict xp = x + begin;
    const int64_t n = end - begin;
    for (int64_t i = 0; i < n; ++i) op[i] = f(xp[i]);
  });
}

template <class Out, class A, class B, class F>
void flat_binary(const Tensor& out, const Tensor& a, const Tensor& b, const F& f) {
  Out* o = static_cast<Out*>(out.raw_data());
  const A* x = static_cast<const A*>(a.raw_data());
  const B* y = static_cast<const B*>(b.raw_data());
  parallel_for(0, out.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
    Out* __restrict op = o + begin;
    const A* __restrict xp = x + begin;
    const B* __restrict yp = y + begin;
    const int64_t n = end - begin;
    for (int64_t i = 0; i < n; ++i) op[i] = f(xp[i], yp[i]);
  });
}

/// out = f(a) over storage types; picks the flat path when it can.
template <class Out, class A, class F>
void run_unary(const Tensor& out, const Tensor& a, const F& f) {
  if (same_geometry_contiguous(out, a)) {
    flat_unary<Out, A>(out, a, f);
    return;
  }
  auto it = ElementwiseIter::build({&out, &a});
  unary_loop<Out, A>(it, f);
}

template <class Out, class A, class B, class F>
void run_binary(const Tensor& out, const Tensor& a, const Tensor& b, const F& f) {
  if (same_geometry_contiguous(out, a) && same_geometry_contiguous(out, b)) {
    flat_binary<Out, A, B>(out, a, b, f);
    return;
  }
  auto it = ElementwiseIter::build({&out, &a, &b});
  binary_loop<Out, A, B>(it, f);
}

/// Wraps a compute-type functor so it loads T, computes in compute_t<T> and stores Out.
template <class T, class Out, class Op>
struct Loaded {
  Op op;
  Out operator()(T x) const { return convert<Out>(op(convert<compute_t<T>>(x))); }
  Out operator()(T x, T y) const {
    return convert<Out>(op(convert<compute_t<T>>(x), convert<compute_t<T>>(y)));
  }
};

template <class T, class Out, class Op>
void binary_tensors(const Tensor& out, const Tensor& a, const Tensor& b, const Op& op) {
  run_binary<Out, T, T>(out, a, b, Loaded<T, Out, Op>{op});
}

/// A binary functor with one side fixed to a scalar, as a unary functor.
template <class C, class Op, bool ScalarFirst>
struct BindScalar {
  Op op;
  C s;
  auto operator()(C x) const {
    if constexpr (ScalarFirst) {
      return op(s, x);
    } else {
      return op(x, s);
    }
  }
};

template <class T, class Out, class Op>
void binary_with_scalar(const Tensor& out, const Tensor& a, compute_t<T> s, bool scalar_first,
                        const Op& op) {
  using C = compute_t<T>;
  if (scalar_first) {
    run_unary<Out, T>(out, a, Loaded<T, Out, BindScalar<C, Op, true>>{{op, s}});
  } else {
    run_unary<Out, T>(out, a, Loaded<T, Out, BindScalar<C, Op, false>>{{op, s}});
  }
}

}  // namespace

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
