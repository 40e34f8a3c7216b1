#pragma once
// Matrix products on the cpu. float32/float64 go to OpenBLAS (sgemm/dgemm) with operands passed
// as they lie in memory; float16/bfloat16 are widened to float and go to sgemm (so they
// accumulate in float); integer dtypes use a blocked loop.

#include "tide/tensor.h"

namespace tide::kernels {

/// Whether the last two dims of `t` can be handed to BLAS without a copy: one of the two
/// strides is 1 and the other a valid leading dimension (a transposed matrix passes as
/// CblasTrans). Size-1 dims may have any stride; an empty tensor is always ready.
bool gemm_operand_ready(const Tensor& t);

/// out = beta * out + alpha * (a @ b), batched over the leading dims: a is (..., m, k), b is
/// (..., k, n) and out (..., m, n) with the same leading sizes. out is contiguous; a and b may
/// be any views (expanded batch dims included). beta == 0 ignores out's contents (NaN too), as
/// BLAS does. float32/float64 operands must be gemm_operand_ready; bool is not supported.
void gemm(const Tensor& out, const Tensor& a, const Tensor& b, Scalar beta, Scalar alpha);

}  // namespace tide::kernels
