#pragma once
// The definitions behind elementwise_binary_dtype.h, included only by the translation units
// that instantiate them for their dtype family.
//
// Note [Binary kernels by dtype]: tensor op scalar reuses the loops of tensor op tensor. The
// scalar, stored as T, becomes a third operand of stride 0 (first or second, as the op reads
// it), and binary_run's broadcast-scalar fast paths vectorize it as one-sided loops would.
// So each (op, dtype) is compiled once, where it was compiled once for tensors and twice more
// for a scalar on either side: the scalar file had become the ci build's largest (issue 24's
// build-time budget). Half and BFloat16 keep one-sided loops: torch reads their scalar in
// float (the opmath scalar), which storing it as T would round.

#include <type_traits>

#include "kernels/cpu/elementwise_binary_dtype.h"
#include "kernels/cpu/elementwise_paths.h"
#include "kernels/functor_select.h"

namespace tide::kernels {

template <class T>
void binary_kernel_of(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                      const Scalar& alpha) {
  with_binary_functor<T>(op, alpha, [&](const auto& f) {
    using R = std::decay_t<decltype(f(compute_t<T>{}, compute_t<T>{}))>;
    if constexpr (std::is_same_v<R, bool>) {
      binary_tensors<T, bool>(out, a, b, f);
    } else {
      binary_tensors<T, T>(out, a, b, f);
    }
  });
}

/// out = a op s (scalar_first: s op a) through binary_run, with `scalar` (a T) as an operand of
/// stride 0 in the place the op reads it.
template <class Out, class T, class F>
void binary_with_scalar_operand(const Tensor& out, const Tensor& a, const T& scalar,
                                bool scalar_first, const F& f) {
  char* s = reinterpret_cast<char*>(const_cast<T*>(&scalar));  // only read: out is operand 0
  if (same_geometry_contiguous(out, a)) {
    char* o = static_cast<char*>(out.raw_data());
    char* x = static_cast<char*>(a.raw_data());
    constexpr int64_t kOut = sizeof(Out), kT = sizeof(T);
    if (scalar_first) {
      flat_binary_run<Out, T, T>({o, s, x}, {kOut, 0, kT}, out.numel(), f);
    } else {
      flat_binary_run<Out, T, T>({o, x, s}, {kOut, kT, 0}, out.numel(), f);
    }
    return;
  }
  ElementwiseIter it = ElementwiseIter::build({&out, &a});
  it.num_operands = 3;
  const int scalar_index = scalar_first ? 1 : 2;
  it.strides[2] = it.strides[1];
  it.data[2] = it.data[1];
  it.strides[scalar_index] = DimVector(it.shape.size(), 0);
  it.data[scalar_index] = s;
  binary_loop<Out, T, T>(it, f);
}

template <class T>
void binary_scalar_kernel_of(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                             bool scalar_first, const Scalar& alpha) {
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
    using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
    if constexpr (std::is_same_v<C, T>) {
      binary_with_scalar_operand<Out>(out, a, sv, scalar_first,
                                      Loaded<T, Out, std::decay_t<decltype(f)>>{f});
    } else {
      binary_with_scalar<T, Out>(out, a, sv, scalar_first, f);
    }
  });
}

}  // namespace tide::kernels
