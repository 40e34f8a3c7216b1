#pragma once
// Elementwise loops on the cpu. An ElementwiseIter describes N operands (operand 0 is the
// output) broadcast to one shape, with dimensions coalesced where every operand is
// contiguous across them. Loops walk it in parallel chunks; the innermost run of each chunk
// gets a fast path when every operand is contiguous or a broadcast scalar, so the compiler
// can vectorize the common cases.

#include <array>
#include <cstdint>
#include <type_traits>

#include "kernels/cpu/parallel.h"
#include "tide/tensor.h"

namespace tide::kernels {

inline constexpr int kMaxOperands = 4;

struct ElementwiseIter {
  int num_operands = 0;
  DimVector shape;  // coalesced; innermost dimension last
  std::array<DimVector, kMaxOperands> strides;  // in bytes, per operand
  std::array<char*, kMaxOperands> data{};
  int64_t numel = 0;

  /// Operands must already be broadcast to `out`'s shape (use Tensor::expand).
  static ElementwiseIter build(std::initializer_list<const Tensor*> operands);
};

/// Calls inner(ptrs, strides_in_bytes, n) for runs of the innermost dimension over the linear
/// element range [begin, end).
template <class Inner>
void for_each_run(const ElementwiseIter& it, int64_t begin, int64_t end, const Inner& inner) {
  const int nops = it.num_operands;
  const int64_t ndim = it.shape.size();
  if (ndim == 0) {
    if (begin < end) {
      std::array<char*, kMaxOperands> ptrs = it.data;
      std::array<int64_t, kMaxOperands> st{};
      inner(ptrs.data(), st.data(), int64_t{1});
    }
    return;
  }
  const int64_t inner_size = it.shape[ndim - 1];
  std::array<int64_t, kMaxOperands> inner_strides{};
  for (int k = 0; k < nops; ++k) inner_strides[k] = it.strides[k][ndim - 1];

  // Decompose `begin` into a multi-index over the outer dims plus an inner position.
  DimVector index(ndim);
  int64_t rem = begin;
  for (int64_t d = ndim - 1; d >= 0; --d) {
    index[d] = rem % it.shape[d];
    rem /= it.shape[d];
  }
  std::array<char*, kMaxOperands> ptrs{};
  for (int k = 0; k < nops; ++k) {
    char* p = it.data[k];
    for (int64_t d = 0; d < ndim; ++d) p += index[d] * it.strides[k][d];
    ptrs[k] = p;
  }
  int64_t pos = begin;
  while (pos < end) {
    int64_t n = std::min(inner_size - index[ndim - 1], end - pos);
    inner(ptrs.data(), inner_strides.data(), n);
    pos += n;
    if (pos >= end) break;
    // advance to the start of the next inner run
    for (int k = 0; k < nops; ++k) ptrs[k] += (n - 0) * inner_strides[k];
    index[ndim - 1] += n;
    for (int64_t d = ndim - 1; d > 0 && index[d] == it.shape[d]; --d) {
      for (int k = 0; k < nops; ++k) ptrs[k] -= it.shape[d] * it.strides[k][d];
      index[d] = 0;
      ++index[d - 1];
      for (int k = 0; k < nops; ++k) ptrs[k] += it.strides[k][d - 1];
    }
  }
}

/// Runs inner over the whole iteration space, in parallel above the grain size.
template <class Inner>
void run_elementwise(const ElementwiseIter& it, const Inner& inner, int64_t grain = kGrainSize) {
  parallel_for(0, it.numel, grain,
               [&](int64_t b, int64_t e) { for_each_run(it, b, e, inner); });
}

/// out[i] = f(a[i]) with Out and A the element types of operands 0 and 1.
template <class Out, class A, class F>
void unary_loop(const ElementwiseIter& it, const F& f) {
  run_elementwise(it, [&](char** p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(Out) && s[1] == sizeof(A)) {
      Out* __restrict o = reinterpret_cast<Out*>(p[0]);
      const A* __restrict a = reinterpret_cast<const A*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<Out*>(p[0] + i * s[0]) = f(*reinterpret_cast<const A*>(p[1] + i * s[1]));
      }
    }
  });
}

/// One run of n elements of out[i] = f(a[i], b[i]) at byte pointers p with byte strides s;
/// fast paths for contiguous operands and a broadcast scalar (stride 0) on either side. Not
/// inlined: one copy of the loops serves the flat path, the iterator's runs and a scalar operand
/// (Note [Binary kernels by dtype]), and a call per run costs nothing beside them.
template <class Out, class A, class B, class F>
[[gnu::noinline]] void binary_run(char** p, const int64_t* s, int64_t n, const F& f) {
  Out* __restrict o = reinterpret_cast<Out*>(p[0]);
  const A* __restrict a = reinterpret_cast<const A*>(p[1]);
  const B* __restrict b = reinterpret_cast<const B*>(p[2]);
  if (s[0] == sizeof(Out) && s[1] == sizeof(A) && s[2] == sizeof(B)) {
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
  } else if (s[0] == sizeof(Out) && s[1] == sizeof(A) && s[2] == 0) {
    const B bv = *b;
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv);
  } else if (s[0] == sizeof(Out) && s[1] == 0 && s[2] == sizeof(B)) {
    const A av = *a;
    for (int64_t i = 0; i < n; ++i) o[i] = f(av, b[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<Out*>(p[0] + i * s[0]) = f(*reinterpret_cast<const A*>(p[1] + i * s[1]),
                                                  *reinterpret_cast<const B*>(p[2] + i * s[2]));
    }
  }
}

/// out[i] = f(a[i], b[i]) over the iterator's runs (binary_run).
template <class Out, class A, class B, class F>
void binary_loop(const ElementwiseIter& it, const F& f) {
  run_elementwise(it, [&](char** p, const int64_t* s, int64_t n) { binary_run<Out, A, B>(p, s, n, f); });
}

/// out[i] = f(a[i], b[i], c[i]) (where, clamp with tensor bounds).
template <class Out, class A, class B, class C, class F>
void ternary_loop(const ElementwiseIter& it, const F& f) {
  run_elementwise(it, [&](char** p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<Out*>(p[0] + i * s[0]) = f(*reinterpret_cast<const A*>(p[1] + i * s[1]),
                                                  *reinterpret_cast<const B*>(p[2] + i * s[2]),
                                                  *reinterpret_cast<const C*>(p[3] + i * s[3]));
    }
  });
}

}  // namespace tide::kernels
