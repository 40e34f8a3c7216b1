// GPU launchers of unary, clamp and where: the cpu kernels' functors
// (kernels/cpu/elementwise_kernels.cpp), run by launch_elementwise.

#include <type_traits>

#include "backends/cuda/elementwise.cuh"
#include "backends/cuda/elementwise_kernels.h"
#include "kernels/convert.h"
#include "kernels/functors.h"

namespace tide::backends::cuda {
namespace {

template <class T>
inline constexpr bool is_float_type_v =
    std::is_floating_point_v<T> || kernels::is_reduced_float<T>::value;

}  // namespace

void unary_kernel(kernels::UnaryOp op, const Tensor& out, const Tensor& a) {
  using kernels::UnaryOp;
  TIDE_INTERNAL_ASSERT(out.dtype() == a.dtype());
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = kernels::compute_t<T>;
    auto run = [&](auto f) {
      launch_elementwise(TypeList<T, T>{}, ComputeIn<T, T, decltype(f)>{f}, out, a);
    };
    switch (op) {
      case UnaryOp::Neg:
        if constexpr (!std::is_same_v<T, bool>) return run(kernels::NegOp<C>{});
        break;
      case UnaryOp::Abs: return run(kernels::AbsOp<C>{});
      case UnaryOp::Relu:
        if constexpr (!std::is_same_v<T, bool>) return run(kernels::ReluOp<C>{});
        break;
      case UnaryOp::Exp:
      case UnaryOp::Log:
      case UnaryOp::Sqrt:
      case UnaryOp::Sigmoid:
      case UnaryOp::Tanh:
        if constexpr (is_float_type_v<T>) {
          switch (op) {
            case UnaryOp::Exp: return run(kernels::ExpOp<C>{});
            case UnaryOp::Log: return run(kernels::LogOp<C>{});
            case UnaryOp::Sqrt: return run(kernels::SqrtOp<C>{});
            case UnaryOp::Sigmoid: return run(kernels::SigmoidOp<C>{});
            default: return run(kernels::TanhOp<C>{});
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
    using C = kernels::compute_t<T>;
    const kernels::ClampOp<C> f{lo ? lo->to<C>() : C{}, hi ? hi->to<C>() : C{}, lo.has_value(),
                                hi.has_value()};
    launch_elementwise(TypeList<T, T>{}, ComputeIn<T, T, kernels::ClampOp<C>>{f}, out, a);
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

}  // namespace tide::backends::cuda
