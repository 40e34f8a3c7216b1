// gemm on the GPU (kernels::gemm_stub's cuda launcher): cuBLAS for floating dtypes whose
// matrices have a unit stride, the strided kernel of gemm_fallback.h for everything else.

#include <cublas_v2.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "backends/cuda/cublas_handle.h"
#include "backends/cuda/cublas_library.h"
#include "kernels/cuda/gemm_fallback.h"
#include "kernels/cuda/kernel_registration.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/blas_layout.h"
#include "kernels/stubs.h"
#include "core/matmul_precision.h"
#include "tide/error.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

using backends::cuda::current_cublas_handle;
namespace {

/// Note [Row-major products on cuBLAS]: cuBLAS is column-major. A row-major (m x n) matrix C
/// with leading dimension n is, read column-major, C^T (n x m). So C = A @ B is computed as
/// C^T = B^T @ A^T: cuBLAS's first operand is our b, its second our a, and its (m, n) are
/// our (n, m). An operand stored row-major (unit column stride, rows `ld` apart) is, read
/// column-major, exactly its transpose: op N. One stored column-major (unit row stride, the
/// transpose of a row-major matrix, as `t.t()` gives) needs op T. Either way no copy is made.
/// The layouts are kernels/blas_layout.h's, with cuBLAS's 32-bit int for the leading dimension.

using kernels::BlasLayout;
BlasLayout matrix_layout(const Tensor& t) { return kernels::matrix_layout(t, INT_MAX); }
cublasOperation_t op_of(const BlasLayout& l) { return l.transposed ? CUBLAS_OP_T : CUBLAS_OP_N; }

/// Note [Batches of products]: out is contiguous, so its matrices follow one another, but a
/// and b may be any views: expanded batch dims have stride 0 (cuBLAS accepts a zero batch
/// stride), and their batch dims need not collapse into one. The trailing batch dims that
/// collapse into one stride for a and b alike (dims of size 1 ignored) form the group of
/// `inner` matrices one strided-batched call takes; the leading dims before it, if any, are
/// looped over on the host, one call each. Sizes and strides only: no host allocation.
struct BatchPlan {
  int64_t inner = 1;           // matrices per call
  int64_t a_stride = 0, b_stride = 0;  // elements between consecutive matrices of a call
  int64_t outer_dims = 0;      // batch dims [0, outer_dims) are looped over
  int64_t outer = 1;           // calls
};

BatchPlan plan_batches(const Tensor& out, const Tensor& a, const Tensor& b) {
  BatchPlan plan;
  int64_t d = out.dim() - 3;
  for (; d >= 0; --d) {
    const int64_t size = out.size(d);
    if (size == 1) continue;
    if (plan.inner == 1) {
      plan.a_stride = a.stride(d);
      plan.b_stride = b.stride(d);
    } else if (a.stride(d) != plan.a_stride * plan.inner ||
               b.stride(d) != plan.b_stride * plan.inner) {
      break;
    }
    plan.inner *= size;
  }
  plan.outer_dims = d + 1;
  for (int64_t i = 0; i < plan.outer_dims; ++i) plan.outer *= out.size(i);
  return plan;
}

/// Element offsets in a and b of the first matrix of call `index` (row-major over the outer
/// batch dims).
void outer_offsets(const Tensor& out, const Tensor& a, const Tensor& b, const BatchPlan& plan,
                   int64_t index, int64_t& a_offset, int64_t& b_offset) {
  a_offset = 0;
  b_offset = 0;
  for (int64_t d = plan.outer_dims - 1; d >= 0; --d) {
    const int64_t i = index % out.size(d);
    index /= out.size(d);
    a_offset += i * a.stride(d);
    b_offset += i * b.stride(d);
  }
}

struct CublasTypes {
  cudaDataType_t data;
  cublasComputeType_t compute;
};

/// Note [cuBLAS precision]: as torch. float32 computes in float32 (CUBLAS_COMPUTE_32F, no
/// TF32) unless set_float32_matmul_precision allows TF32, read at every call; float16 and
/// bfloat16 accumulate in float32; float64 in float64. alpha and beta are float for all but
/// float64 (the scale type of CUBLAS_COMPUTE_32F*).
bool cublas_types(Dtype dtype, CublasTypes& types) {
  switch (dtype) {
    case kFloat32:
      types = {CUDA_R_32F, detail::float32_matmul_allows_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                  : CUBLAS_COMPUTE_32F};
      return true;
    case kFloat64: types = {CUDA_R_64F, CUBLAS_COMPUTE_64F}; return true;
    case kFloat16: types = {CUDA_R_16F, CUBLAS_COMPUTE_32F}; return true;
    case kBFloat16: types = {CUDA_R_16BF, CUBLAS_COMPUTE_32F}; return true;
    default: return false;
  }
}

struct Problem {
  int64_t m, n, k;
  int64_t element_size;
  const char* a_data;
  const char* b_data;
  char* c_data;
};

void gemm_cublas(const Problem& p, const BatchPlan& plan, const Tensor& out, const Tensor& a,
                 const Tensor& b, const BlasLayout& la, const BlasLayout& lb, const CublasTypes& types,
                 Scalar beta, Scalar alpha) {
  const cublasHandle_t handle = current_cublas_handle();
  const backends::cuda::CublasLibrary& lib = backends::cuda::cublas();
  const double alpha_d = alpha.to_double(), beta_d = beta.to_double();
  const float alpha_f = static_cast<float>(alpha_d), beta_f = static_cast<float>(beta_d);
  const bool f64 = types.compute == CUBLAS_COMPUTE_64F;
  const void* alpha_p = f64 ? static_cast<const void*>(&alpha_d) : &alpha_f;
  const void* beta_p = f64 ? static_cast<const void*>(&beta_d) : &beta_f;
  // Note [Row-major products on cuBLAS]: (m, n) swapped, b first.
  const int m = static_cast<int>(p.n), n = static_cast<int>(p.m), k = static_cast<int>(p.k);
  const int ldb_as_first = static_cast<int>(lb.ld), lda_as_second = static_cast<int>(la.ld);
  const int ldc = static_cast<int>(p.n);
  const int64_t c_stride = p.m * p.n;
  for (int64_t call = 0; call < plan.outer; ++call) {
    int64_t a_offset = 0, b_offset = 0;
    outer_offsets(out, a, b, plan, call, a_offset, b_offset);
    // cuBLAS counts the batch in an int: a larger group is taken in chunks.
    for (int64_t first = 0; first < plan.inner; first += INT_MAX) {
      const int count = static_cast<int>(std::min<int64_t>(plan.inner - first, INT_MAX));
      const char* a_ptr = p.a_data + (a_offset + first * plan.a_stride) * p.element_size;
      const char* b_ptr = p.b_data + (b_offset + first * plan.b_stride) * p.element_size;
      char* c_ptr = p.c_data + ((call * plan.inner + first) * c_stride) * p.element_size;
      if (count == 1) {
        TIDE_CUBLAS_CHECK(lib.gemm_ex(handle, op_of(lb), op_of(la), m, n, k, alpha_p, b_ptr,
                                      types.data, ldb_as_first, a_ptr, types.data,
                                      lda_as_second, beta_p, c_ptr, types.data, ldc,
                                      types.compute, CUBLAS_GEMM_DEFAULT));
      } else {
        TIDE_CUBLAS_CHECK(lib.gemm_strided_batched_ex(
            handle, op_of(lb), op_of(la), m, n, k, alpha_p, b_ptr, types.data, ldb_as_first,
            plan.b_stride, a_ptr, types.data, lda_as_second, plan.a_stride, beta_p, c_ptr,
            types.data, ldc, c_stride, count, types.compute, CUBLAS_GEMM_DEFAULT));
      }
    }
  }
}

void gemm_strided(const Problem& p, const BatchPlan& plan, const Tensor& out, const Tensor& a,
                  const Tensor& b, Scalar beta, Scalar alpha) {
  const LaunchContext& launch = current_launch();
  const int64_t nd = out.dim();
  StridedGemm g;
  g.dtype = out.dtype();
  g.m = p.m;
  g.n = p.n;
  g.k = p.k;
  g.batch = plan.inner;
  g.a_batch_stride = plan.a_stride;
  g.a_row_stride = a.stride(nd - 2);
  g.a_col_stride = a.stride(nd - 1);
  g.b_batch_stride = plan.b_stride;
  g.b_row_stride = b.stride(nd - 2);
  g.b_col_stride = b.stride(nd - 1);
  g.alpha = alpha.to_double();
  g.beta = beta.to_double();
  if (is_integral(out.dtype(), /*include_bool=*/true)) {
    // Only integer products read these; a float Scalar (inf, NaN) must not be cast to int64.
    g.alpha_int = alpha.to_int64();
    g.beta_int = beta.to_int64();
  }
  for (int64_t call = 0; call < plan.outer; ++call) {
    int64_t a_offset = 0, b_offset = 0;
    outer_offsets(out, a, b, plan, call, a_offset, b_offset);
    g.a = p.a_data + a_offset * p.element_size;
    g.b = p.b_data + b_offset * p.element_size;
    g.c = p.c_data + call * plan.inner * p.m * p.n * p.element_size;
    launch_strided_gemm(g, launch.stream, launch.sm_count);
  }
}

/// kernels::gemm's contract (kernels/cpu/gemm.h) on the current launch's device and stream.
/// Unlike the cpu, any operand layout is accepted: one cuBLAS cannot read directly goes to
/// the strided kernel rather than being copied, since a launcher runs no tide ops.
void gemm_cuda(const Tensor& out, const Tensor& a, const Tensor& b, Scalar beta, Scalar alpha) {
  const int64_t nd = out.dim();
  TIDE_INTERNAL_ASSERT(nd >= 2 && a.dim() == nd && b.dim() == nd && out.is_contiguous());
  Problem p;
  p.m = out.size(nd - 2);
  p.n = out.size(nd - 1);
  p.k = a.size(nd - 1);
  if (out.numel() == 0) return;
  p.element_size = static_cast<int64_t>(out.element_size());
  p.a_data = static_cast<const char*>(a.raw_data());
  p.b_data = static_cast<const char*>(b.raw_data());
  p.c_data = static_cast<char*>(out.raw_data());
  const BatchPlan plan = plan_batches(out, a, b);

  CublasTypes types;
  const BlasLayout la = matrix_layout(a), lb = matrix_layout(b);
  const bool cublas_ok = cublas_types(out.dtype(), types) && la.ok && lb.ok && p.k > 0 &&
                         p.m <= INT_MAX && p.n <= INT_MAX && p.k <= INT_MAX;
  if (cublas_ok) {
    gemm_cublas(p, plan, out, a, b, la, lb, types, beta, alpha);
  } else {
    gemm_strided(p, plan, out, a, b, beta, alpha);
  }
}

}  // namespace

void register_blas_kernels() { kernels::gemm_stub.cuda = &gemm_cuda; }

}  // namespace tide::kernels::cuda
