// GPU launcher of binary_scalar: the cpu kernel's choice of functor, pow fast paths and scalar
// conversion (kernels/functor_select.h), run by launch_elementwise.

#include <type_traits>

#include "kernels/cuda/elementwise.cuh"
#include "kernels/cuda/elementwise_kernels.h"
#include "kernels/functor_select.h"

namespace tide::kernels::cuda {
namespace {

using kernels::BinaryOp;
using kernels::compute_t;
using kernels::convert;

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

}  // namespace

void binary_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                          bool scalar_first, const Scalar& alpha) {
  TIDE_INTERNAL_ASSERT(out.dtype() == (kernels::is_comparison(op) ? kBool : a.dtype()));
  if (out.numel() == 0) return;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (op == BinaryOp::Pow && !scalar_first &&
        kernels::with_pow_scalar_functor<T>(s.to_double(), [&](auto f) {
          launch_elementwise(TypeList<T, T>{}, ComputeIn<T, T, decltype(f)>{f}, out, a);
        })) {
      return;
    }
    const compute_t<T> sv = kernels::binary_scalar_operand<T>(op, s);
    kernels::with_binary_functor<T>(op, alpha, [&](const auto& f) {
      using Op = std::decay_t<decltype(f)>;
      using Out = stored_t<T, Op>;
      launch_elementwise(TypeList<Out, T>{}, WithScalar<T, Out, Op>{f, sv, scalar_first}, out, a);
    });
  });
}

}  // namespace tide::kernels::cuda
