// GPU launchers of binary and binary_scalar: the cpu kernels' choice of functor
// (kernels/cpu/elementwise_kernels.cpp) — PlainAddOp for alpha == 1, bool arithmetic, torch's
// pow fast paths, the scalar's conversion — run by launch_elementwise.

#include <type_traits>

#include "backends/cuda/elementwise.cuh"
#include "backends/cuda/elementwise_kernels.h"
#include "kernels/convert.h"
#include "kernels/functors.h"

namespace tide::backends::cuda {
namespace {

using kernels::BinaryOp;
using kernels::compute_t;
using kernels::convert;

template <class T>
inline constexpr bool is_float_type_v =
    std::is_floating_point_v<T> || kernels::is_reduced_float<T>::value;

/// A binary functor with one side fixed to a scalar, loading T and storing Out. Unlike the
/// cpu's BindScalar the side is a runtime flag, not a template parameter: it is uniform over
/// the grid, so it costs one select, and it halves the instantiations.
template <class T, class Out, class Op>
struct WithScalar {
  Op op;
  compute_t<T> s;
  bool scalar_first;
  TIDE_HOST_DEVICE Out operator()(T x) const {
    const compute_t<T> v = convert<compute_t<T>>(x);
    return convert<Out>(scalar_first ? op(s, v) : op(v, s));
  }
};

/// pow(a, e) for the exponents torch special-cases, as the cpu's pow_scalar_fast_path.
/// Returns false when `e` is not one of them.
template <class T>
bool pow_scalar_fast_path(const Tensor& out, const Tensor& a, double e) {
  using C = compute_t<T>;
  auto run = [&](auto op) {
    launch_elementwise(TypeList<T, T>{}, ComputeIn<T, T, decltype(op)>{op}, out, a);
    return true;
  };
  if constexpr (is_float_type_v<T>) {
    if (e == 2) return run(kernels::SquareOp<C>{});
    if (e == 3) return run(kernels::CubeOp<C>{});
    if (e == 0.5) return run(kernels::SqrtOp<C>{});
    if (e == -0.5) return run(kernels::RsqrtOp<C>{});
    if (e == -1) return run(kernels::ReciprocalOp<C>{});
    if (e == -2) return run(kernels::InverseSquareOp<C>{});
  } else if constexpr (!std::is_same_v<T, bool>) {
    if (e == 2) return run(kernels::SquareOp<C>{});
  }
  return false;
}

/// Calls f with the functor for `op` over compute type C, exactly as the cpu's
/// with_binary_functor chooses it.
template <class T, class F>
void with_binary_functor(BinaryOp op, const Scalar& alpha, const F& f) {
  using C = compute_t<T>;
  constexpr bool kBoolT = std::is_same_v<T, bool>;
  switch (op) {
    case BinaryOp::Add:
      if constexpr (kBoolT) {
        f(kernels::BoolAddOp{alpha.to_bool()});
      } else if (alpha.to_double() == 1.0) {
        f(kernels::PlainAddOp<C>{});
      } else {
        f(kernels::AddOp<C>{alpha.to<C>()});
      }
      return;
    case BinaryOp::Sub:
      if constexpr (!kBoolT) {
        f(kernels::SubOp<C>{alpha.to<C>()});
        return;
      }
      break;
    case BinaryOp::Mul:
      if constexpr (kBoolT) {
        f(kernels::BoolMulOp{});
      } else {
        f(kernels::MulOp<C>{});
      }
      return;
    case BinaryOp::Div:
      if constexpr (is_float_type_v<T>) {
        f(kernels::DivOp<C>{});
        return;
      }
      break;
    case BinaryOp::Pow: f(kernels::PowOp<C>{}); return;
    case BinaryOp::Maximum: f(kernels::MaximumOp<C>{}); return;
    case BinaryOp::Minimum: f(kernels::MinimumOp<C>{}); return;
    case BinaryOp::Eq: f(kernels::EqOp<C>{}); return;
    case BinaryOp::Ne: f(kernels::NeOp<C>{}); return;
    case BinaryOp::Lt: f(kernels::LtOp<C>{}); return;
    case BinaryOp::Le: f(kernels::LeOp<C>{}); return;
    case BinaryOp::Gt: f(kernels::GtOp<C>{}); return;
    case BinaryOp::Ge: f(kernels::GeOp<C>{}); return;
  }
  TIDE_INTERNAL_ASSERT(false, "binary op ", static_cast<int>(op), " has no kernel for this dtype");
}

/// The storage type a functor's result is stored as: bool for comparisons, T otherwise.
template <class T, class Op>
using stored_t = std::conditional_t<
    std::is_same_v<std::decay_t<decltype(std::declval<Op>()(compute_t<T>{}, compute_t<T>{}))>,
                   bool>,
    bool, T>;

}  // namespace

void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(a.dtype() == b.dtype());
  TIDE_INTERNAL_ASSERT(out.dtype() == (kernels::is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    with_binary_functor<T>(op, alpha, [&](const auto& f) {
      using Op = std::decay_t<decltype(f)>;
      using Out = stored_t<T, Op>;
      launch_elementwise(TypeList<Out, T, T>{}, ComputeIn<T, Out, Op>{f}, out, a, b);
    });
  });
}

void binary_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                          bool scalar_first, const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(out.dtype() == (kernels::is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if (op == BinaryOp::Pow && !scalar_first && pow_scalar_fast_path<T>(out, a, s.to_double())) {
      return;
    }
    // Comparisons round the scalar to a's dtype first (torch wraps it as a tensor of that
    // dtype); arithmetic reads it in the compute type (torch's opmath scalar).
    const C sv = kernels::is_comparison(op) ? convert<C>(s.to<T>()) : s.to<C>();
    with_binary_functor<T>(op, alpha, [&](const auto& f) {
      using Op = std::decay_t<decltype(f)>;
      using Out = stored_t<T, Op>;
      launch_elementwise(TypeList<Out, T>{}, WithScalar<T, Out, Op>{f, sv, scalar_first}, out, a);
    });
  });
}

}  // namespace tide::backends::cuda
