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
#include "kernels/functors.h"

namespace tide::kernels {
namespace {

template <class T>
inline constexpr bool is_float_type_v = std::is_floating_point_v<T> || is_reduced_float<T>::value;

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

/// pow(a, s) for the exponents torch special-cases on floats (same results as its kernels).
/// Returns false when `e` is not one of them.
template <class T>
bool pow_scalar_fast_path(const Tensor& out, const Tensor& a, double e) {
  using C = compute_t<T>;
  auto run = [&](auto op) {
    run_unary<T, T>(out, a, Loaded<T, T, decltype(op)>{op});
    return true;
  };
  if constexpr (is_float_type_v<T>) {
    if (e == 2) return run(SquareOp<C>{});
    if (e == 3) return run(CubeOp<C>{});
    if (e == 0.5) return run(SqrtOp<C>{});
    if (e == -0.5) return run(RsqrtOp<C>{});
    if (e == -1) return run(ReciprocalOp<C>{});
    if (e == -2) return run(InverseSquareOp<C>{});
  } else if constexpr (!std::is_same_v<T, bool>) {
    if (e == 2) return run(SquareOp<C>{});
  }
  return false;
}

/// Calls f with the functor for `op` over compute type C; f(op, out_is_bool).
template <class T, class F>
void with_binary_functor(BinaryOp op, const Scalar& alpha, const F& f) {
  using C = compute_t<T>;
  constexpr bool kBoolT = std::is_same_v<T, bool>;
  switch (op) {
    case BinaryOp::Add:
      if constexpr (kBoolT) {
        f(BoolAddOp{alpha.to_bool()});
      } else if (alpha.to_double() == 1.0) {
        f(PlainAddOp<C>{});
      } else {
        f(AddOp<C>{alpha.to<C>()});
      }
      return;
    case BinaryOp::Sub:
      if constexpr (!kBoolT) {
        f(SubOp<C>{alpha.to<C>()});
        return;
      }
      break;
    case BinaryOp::Mul:
      if constexpr (kBoolT) {
        f(BoolMulOp{});
      } else {
        f(MulOp<C>{});
      }
      return;
    case BinaryOp::Div:
      if constexpr (is_float_type_v<T>) {
        f(DivOp<C>{});
        return;
      }
      break;
    case BinaryOp::Pow: f(PowOp<C>{}); return;
    case BinaryOp::Maximum: f(MaximumOp<C>{}); return;
    case BinaryOp::Minimum: f(MinimumOp<C>{}); return;
    case BinaryOp::Eq: f(EqOp<C>{}); return;
    case BinaryOp::Ne: f(NeOp<C>{}); return;
    case BinaryOp::Lt: f(LtOp<C>{}); return;
    case BinaryOp::Le: f(LeOp<C>{}); return;
    case BinaryOp::Gt: f(GtOp<C>{}); return;
    case BinaryOp::Ge: f(GeOp<C>{}); return;
  }
  TIDE_INTERNAL_ASSERT(false, "binary op ", static_cast<int>(op), " has no kernel for this dtype");
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
    if (op == BinaryOp::Pow && !scalar_first && pow_scalar_fast_path<T>(out, a, s.to_double())) {
      return;
    }
    const C sv = is_comparison(op) ? convert<C>(s.to<T>()) : s.to<C>();
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
    using C = compute_t<T>;
    auto run = [&](const auto& f) { run_unary<T, T>(out, a, Loaded<T, T, std::decay_t<decltype(f)>>{f}); };
    switch (op) {
      case UnaryOp::Neg:
        if constexpr (!std::is_same_v<T, bool>) return run(NegOp<C>{});
        break;
      case UnaryOp::Abs: return run(AbsOp<C>{});
      case UnaryOp::Relu:
        if constexpr (!std::is_same_v<T, bool>) return run(ReluOp<C>{});
        break;
      case UnaryOp::Exp:
      case UnaryOp::Log:
      case UnaryOp::Sqrt:
      case UnaryOp::Sigmoid:
      case UnaryOp::Tanh:
        if constexpr (is_float_type_v<T>) {
          switch (op) {
            case UnaryOp::Exp: return run(ExpOp<C>{});
            case UnaryOp::Log: return run(LogOp<C>{});
            case UnaryOp::Sqrt: return run(SqrtOp<C>{});
            case UnaryOp::Sigmoid: return run(SigmoidOp<C>{});
            default: return run(TanhOp<C>{});
          }
        }
        break;
    }
    TIDE_INTERNAL_ASSERT(false, "unary op ", static_cast<int>(op), " has no kernel for ",
                         name(a.dtype()));
  });
}

void clamp_kernel(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo,
                  const std::optional<Scalar>& hi) {
  TIDE_INTERNAL_ASSERT(out.dtype() == a.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    ClampOp<C> f{lo ? lo->to<C>() : C{}, hi ? hi->to<C>() : C{}, lo.has_value(), hi.has_value()};
    run_unary<T, T>(out, a, Loaded<T, T, ClampOp<C>>{f});
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
