#pragma once
// The GPU's own matrix-product kernel, for what cuBLAS does not take: integer dtypes, operands
// whose matrices have no unit stride, k == 0 and sizes past cuBLAS's 32-bit int. Plain C++
// (no CUDA headers), so the cuBLAS launcher (blas_kernels.cpp) can call it.

#include <cstdint>

#include "tide/dtype.h"

struct CUstream_st;

namespace tide::kernels::cuda {

/// One batched product c[i] = beta * c[i] + alpha * (a[i] @ b[i]) for i in [0, batch): a[i] is
/// (m x k) at a + i * a_batch_stride with any row/column strides, likewise b[i] (k x n); c[i]
/// is a contiguous (m x n) matrix at c + i * m * n. Strides are in elements. beta == 0 ignores
/// c's contents. Floating dtypes accumulate in float (double for float64) and use alpha/beta;
/// integer dtypes wrap as the cpu loop does and use alpha_int/beta_int. Not bool.
struct StridedGemm {
  Dtype dtype = kFloat32;
  void* c = nullptr;
  const void* a = nullptr;
  const void* b = nullptr;
  int64_t m = 0, n = 0, k = 0, batch = 0;
  int64_t a_batch_stride = 0, a_row_stride = 0, a_col_stride = 0;
  int64_t b_batch_stride = 0, b_row_stride = 0, b_col_stride = 0;
  double alpha = 1, beta = 0;
  int64_t alpha_int = 1, beta_int = 0;
};

/// Enqueues the product on `stream`, its grid sized for `sm_count` multiprocessors.
void launch_strided_gemm(const StridedGemm& g, CUstream_st* stream, int sm_count);

}  // namespace tide::kernels::cuda
