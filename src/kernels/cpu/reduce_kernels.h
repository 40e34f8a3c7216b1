#pragma once
// Reduction loops on the cpu: sum and mean, max and min with their indices.
//
// Note [Reduction shape]: the front end (src/ops/reduce.cpp) brings every reduction into one
// shape: a contiguous input of (outer, reduced, inner) elements reduced over the middle,
// giving outer * inner outputs. inner == 1 reduces contiguous rows (innermost dims);
// outer == 1 with inner > 1 accumulates whole rows of a matrix (outermost dims); a
// whole-tensor reduction is (1, numel, 1). Anything else (reduced dims that are not adjacent,
// a strided input) is permuted and made contiguous first, so the loops here only ever see
// unit-stride memory and the compiler can vectorize them.

#include <cstdint>

#include "tide/tensor.h"

namespace tide::kernels {

/// Whether t's elements lie densely in row-major order, as every cpu loop here expects. An
/// empty tensor always qualifies, whatever its strides say: nothing is read from it.
inline bool dense(const Tensor& t) { return t.numel() == 0 || t.is_contiguous(); }

struct ReduceShape {
  int64_t outer = 1;
  int64_t reduced = 1;
  int64_t inner = 1;
};

/// `shape` viewed as (outer, shape[dim], inner) around `dim`: the layout index_select and cat
/// move rows in, as reductions over one dim do.
inline ReduceShape split_at_dim(const DimVector& shape, int64_t dim) {
  ReduceShape s;
  for (int64_t d = 0; d < shape.size(); ++d) {
    if (d < dim) s.outer *= shape[d];
    if (d == dim) s.reduced = shape[d];
    if (d > dim) s.inner *= shape[d];
  }
  return s;
}

/// out[o, i] = sum over r of in[o, r, i], divided by `reduced` when `mean` (0/0 is NaN).
/// `in` and `out` are contiguous; out.dtype() is in.dtype(), or int64 for a bool or integer
/// input. Accumulates as Note [Reduction accumulators] says, in a cascade (pairwise over blocks
/// of 16 independent lanes) for accuracy; the result does not depend on the thread count.
void sum_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool mean);

/// out[o, i] = the product over r of in[o, r, i] (1 when reduced == 0), with sum_kernel's
/// dtypes and accumulators (Note [Reduction folds]).
void prod_kernel(const Tensor& out, const Tensor& in, ReduceShape shape);

/// out[o, r, i] = the sum (or product) of in[o, 0..r, i]: cumsum and cumprod. out has in's
/// shape and in's dtype, or int64 for a bool or integer input; both contiguous.
void scan_kernel(const Tensor& out, const Tensor& in, ReduceShape shape, bool prod);

/// cummax/cummin: values[o, r, i] / indices[o, r, i] = the max (min) of in[o, 0..r, i] and
/// the last position where it occurs (torch: a later equal value or NaN takes over). All of
/// in's shape, contiguous; values of in's dtype, indices int64.
void cum_extremum_kernel(const Tensor& values, const Tensor& indices, const Tensor& in,
                         ReduceShape shape, bool is_max);

/// values[o, i] / indices[o, i] = the max (or min) over r of in[o, r, i] and the first r where
/// it occurs; NaN wins and the first NaN is reported. Either output may be undefined (not
/// wanted). `reduced` must be > 0; values has in's dtype, indices is int64, both contiguous.
void min_max_kernel(const Tensor& values, const Tensor& indices, const Tensor& in,
                    ReduceShape shape, bool is_max);

}  // namespace tide::kernels
