#pragma once
// How a BLAS (OpenBLAS on cpu, cuBLAS on GPUs) reads one strided matrix without a copy.

#include <algorithm>
#include <cstdint>

#include "tide/tensor.h"

namespace tide::kernels {

/// One matrix operand as a row-major BLAS sees it: stored as is, or as its transpose stored
/// row-major (`transposed`), with leading dimension `ld`; `ok` false when neither fits.
struct BlasLayout {
  bool ok = false;
  bool transposed = false;
  int64_t ld = 0;
};

/// The layout of a (rows x cols) matrix with these element strides, if BLAS can take it with a
/// leading dimension of at most `max_ld` (the library's int). Size-1 dims may have any stride.
inline BlasLayout blas_layout(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride,
                              int64_t max_ld) {
  // Row-major as stored: element (i, j) at i * ld + j; BLAS needs ld >= max(1, cols).
  if ((col_stride == 1 || cols == 1) && (rows == 1 || row_stride >= std::max<int64_t>(1, cols))) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(1, cols) : row_stride;
    if (ld <= max_ld) return {true, false, ld};
  }
  // The transpose stored row-major: element (i, j) at j * ld + i; ld >= max(1, rows).
  if ((row_stride == 1 || rows == 1) && (cols == 1 || col_stride >= std::max<int64_t>(1, rows))) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(1, rows) : col_stride;
    if (ld <= max_ld) return {true, true, ld};
  }
  return {};
}

/// The layout of t's last two dims (its matrices).
inline BlasLayout matrix_layout(const Tensor& t, int64_t max_ld) {
  const int64_t nd = t.dim();
  return blas_layout(t.size(nd - 2), t.size(nd - 1), t.stride(nd - 2), t.stride(nd - 1), max_ld);
}

}  // namespace tide::kernels
