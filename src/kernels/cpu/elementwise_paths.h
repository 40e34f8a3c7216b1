#pragma once
// The cpu elementwise kernels' two paths (Note [Elementwise kernel paths] in
// elementwise_kernels.cpp), shared by the kernels' translation units: unary, binary, binary with
// a scalar, and the rest, each compiled on its own so that the op families' instantiations build
// in parallel (issue 24: nvcc's and g++'s time grows with the ops, not with one file).

#include <array>
#include <cmath>
#include <type_traits>

#include "kernels/convert.h"
#include "kernels/cpu/elementwise.h"
#include "kernels/cpu/parallel.h"
#include "tide/tensor.h"

namespace tide::kernels {

inline bool same_geometry_contiguous(const Tensor& out, const Tensor& a) {
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

/// binary_run over n elements in parallel chunks: operand k starts at base[k] and steps
/// strides[k] bytes (the element size, or 0 for a broadcast scalar).
template <class Out, class A, class B, class F>
void flat_binary_run(const std::array<char*, 3>& base, const std::array<int64_t, 3>& strides,
                     int64_t n, const F& f) {
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    char* p[3] = {base[0] + begin * strides[0], base[1] + begin * strides[1],
                  base[2] + begin * strides[2]};
    binary_run<Out, A, B>(p, strides.data(), end - begin, f);
  });
}

template <class Out, class A, class B, class F>
void flat_binary(const Tensor& out, const Tensor& a, const Tensor& b, const F& f) {
  flat_binary_run<Out, A, B>(
      {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()),
       static_cast<char*>(b.raw_data())},
      {int64_t{sizeof(Out)}, int64_t{sizeof(A)}, int64_t{sizeof(B)}}, out.numel(), f);
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
  Out operator()(T x, T y, T z) const {
    using C = compute_t<T>;
    return convert<Out>(op(convert<C>(x), convert<C>(y), convert<C>(z)));
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

}  // namespace tide::kernels
