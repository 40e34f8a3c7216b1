#include "kernels/cpu/gemm.h"

#include <cblas.h>

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/blas_layout.h"
#include "kernels/convert.h"
#include "kernels/cpu/blas_call.h"
#include "kernels/cpu/parallel.h"

namespace tide::kernels {
namespace {

constexpr int64_t kMaxBlasInt = std::numeric_limits<blasint>::max();

BlasLayout matrix_layout(const Tensor& t) { return kernels::matrix_layout(t, kMaxBlasInt); }

/// Element offset of every matrix of `t` over its leading (batch) dims, in row-major order.
std::vector<int64_t> batch_offsets(const Tensor& t, int64_t batch) {
  const int64_t nb = t.dim() - 2;
  std::vector<int64_t> offsets(static_cast<size_t>(batch));
  std::vector<int64_t> index(static_cast<size_t>(std::max<int64_t>(nb, 0)), 0);
  int64_t cur = 0;
  for (int64_t i = 0; i < batch; ++i) {
    offsets[static_cast<size_t>(i)] = cur;
    for (int64_t d = nb - 1; d >= 0; --d) {
      cur += t.stride(d);
      if (++index[static_cast<size_t>(d)] < t.size(d)) break;
      cur -= t.stride(d) * t.size(d);
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return offsets;
}

void blas_gemm(bool ta, bool tb, blasint m, blasint n, blasint k, float alpha, const float* a,
               blasint lda, const float* b, blasint ldb, float beta, float* c, blasint ldc) {
  BlasCall call;  // Note [Serial OpenBLAS is not reentrant]
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n,
              k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void blas_gemm(bool ta, bool tb, blasint m, blasint n, blasint k, double alpha, const double* a,
               blasint lda, const double* b, blasint ldb, double beta, double* c, blasint ldc) {
  BlasCall call;  // Note [Serial OpenBLAS is not reentrant]
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n,
              k, alpha, a, lda, b, ldb, beta, c, ldc);
}

struct Problem {
  int64_t batch, m, n, k;
  std::vector<int64_t> a_offsets, b_offsets;
};

/// float32/float64: one BLAS call per matrix, operands as they lie.
template <class T>
void gemm_blas(const Problem& p, const Tensor& out, const Tensor& a, const Tensor& b, T beta, T alpha) {
  const BlasLayout la = matrix_layout(a), lb = matrix_layout(b);
  TIDE_INTERNAL_ASSERT(la.ok && lb.ok, "gemm operands must be gemm_operand_ready");
  const T* a_data = static_cast<const T*>(a.raw_data());
  const T* b_data = static_cast<const T*>(b.raw_data());
  T* c_data = static_cast<T*>(out.raw_data());
  for (int64_t i = 0; i < p.batch; ++i) {
    blas_gemm(la.transposed, lb.transposed, static_cast<blasint>(p.m), static_cast<blasint>(p.n),
              static_cast<blasint>(p.k), alpha, a_data + p.a_offsets[i],
              static_cast<blasint>(la.ld), b_data + p.b_offsets[i], static_cast<blasint>(lb.ld), beta,
              c_data + i * p.m * p.n, static_cast<blasint>(p.n));
  }
}

/// Copies one (rows x cols) strided matrix of T into a row-major buffer of U.
template <class U, class T>
void pack(U* dst, const T* src, int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  for (int64_t i = 0; i < rows; ++i) {
    const T* row = src + i * rs;
    U* d = dst + i * cols;
    if (cs == 1) {
      for (int64_t j = 0; j < cols; ++j) d[j] = convert<U>(row[j]);
    } else {
      for (int64_t j = 0; j < cols; ++j) d[j] = convert<U>(row[j * cs]);
    }
  }
}

/// float16/bfloat16: widen to float, sgemm, round once on the way back.
template <class T>
void gemm_widened(const Problem& p, const Tensor& out, const Tensor& a, const Tensor& b, float beta,
                  float alpha) {
  const int64_t nd = a.dim();
  const T* a_data = static_cast<const T*>(a.raw_data());
  const T* b_data = static_cast<const T*>(b.raw_data());
  T* c_data = static_cast<T*>(out.raw_data());
  std::vector<float> fa(static_cast<size_t>(p.m * p.k)), fb(static_cast<size_t>(p.k * p.n)),
      fc(static_cast<size_t>(p.m * p.n));
  for (int64_t i = 0; i < p.batch; ++i) {
    pack(fa.data(), a_data + p.a_offsets[i], p.m, p.k, a.stride(nd - 2), a.stride(nd - 1));
    pack(fb.data(), b_data + p.b_offsets[i], p.k, p.n, b.stride(nd - 2), b.stride(nd - 1));
    T* c = c_data + i * p.m * p.n;
    if (beta != 0.0f) pack(fc.data(), c, p.m, p.n, p.n, 1);
    blas_gemm(false, false, static_cast<blasint>(p.m), static_cast<blasint>(p.n),
              static_cast<blasint>(p.k), alpha, fa.data(), static_cast<blasint>(p.k), fb.data(),
              static_cast<blasint>(p.n), beta, fc.data(), static_cast<blasint>(p.n));
    for (int64_t j = 0; j < p.m * p.n; ++j) c[j] = convert<T>(fc[j]);
  }
}

/// Integers: pack both operands row-major, then a loop blocked over columns and the reduction
/// so a block of b stays in cache while every row of the chunk streams over it; the inner loop
/// runs over contiguous columns and vectorizes. Accumulates in T (wrapping, as torch).
template <class T>
void gemm_loop(const Problem& p, const Tensor& out, const Tensor& a, const Tensor& b, T beta, T alpha) {
  constexpr int64_t kBlockN = 256, kBlockK = 128;
  const int64_t nd = a.dim();
  const T* a_data = static_cast<const T*>(a.raw_data());
  const T* b_data = static_cast<const T*>(b.raw_data());
  T* c_data = static_cast<T*>(out.raw_data());
  const int64_t m = p.m, n = p.n, k = p.k;
  std::vector<T> pa(static_cast<size_t>(m * k)), pb(static_cast<size_t>(k * n)), acc(static_cast<size_t>(m * n));
  const int64_t grain_rows = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, n * k));
  for (int64_t bi = 0; bi < p.batch; ++bi) {
    pack(pa.data(), a_data + p.a_offsets[bi], m, k, a.stride(nd - 2), a.stride(nd - 1));
    pack(pb.data(), b_data + p.b_offsets[bi], k, n, b.stride(nd - 2), b.stride(nd - 1));
    std::fill(acc.begin(), acc.end(), T(0));
    T* c = c_data + bi * m * n;
    parallel_for(0, m, grain_rows, [&](int64_t i0, int64_t i1) {
      for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        const int64_t j1 = std::min(n, j0 + kBlockN);
        for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
          const int64_t p1 = std::min(k, p0 + kBlockK);
          for (int64_t i = i0; i < i1; ++i) {
            T* __restrict crow = acc.data() + i * n;
            const T* arow = pa.data() + i * k;
            for (int64_t q = p0; q < p1; ++q) {
              const T av = arow[q];
              const T* __restrict brow = pb.data() + q * n;
              for (int64_t j = j0; j < j1; ++j) crow[j] = static_cast<T>(crow[j] + av * brow[j]);
            }
          }
        }
      }
      for (int64_t i = i0 * n; i < i1 * n; ++i) {
        const T scaled = static_cast<T>(alpha * acc[i]);
        c[i] = beta == T(0) ? scaled : static_cast<T>(beta * c[i] + scaled);
      }
    });
  }
}

/// k == 0: the product is zero, so out = beta * out.
template <class T>
void scale(const Tensor& out, Scalar beta) {
  T* c = static_cast<T*>(out.raw_data());
  const int64_t n = out.numel();
  if (beta.to_double() == 0.0) {
    std::fill(c, c + n, convert<T>(0));
    return;
  }
  const compute_t<T> b = beta.to<compute_t<T>>();
  for (int64_t i = 0; i < n; ++i) c[i] = convert<T>(static_cast<compute_t<T>>(b * convert<compute_t<T>>(c[i])));
}

}  // namespace

bool gemm_operand_ready(const Tensor& t) {
  return t.numel() == 0 || matrix_layout(t).ok;
}

void gemm(const Tensor& out, const Tensor& a, const Tensor& b, Scalar beta, Scalar alpha) {
  const int64_t nd = out.dim();
  TIDE_INTERNAL_ASSERT(nd >= 2 && a.dim() == nd && b.dim() == nd && out.is_contiguous());
  Problem p;
  p.m = out.size(nd - 2);
  p.n = out.size(nd - 1);
  p.k = a.size(nd - 1);
  p.batch = 1;
  for (int64_t d = 0; d < nd - 2; ++d) p.batch *= out.size(d);
  if (p.batch == 0 || p.m == 0 || p.n == 0) return;
  if (p.k == 0) {
    dispatch_dtype(out.dtype(), [&](auto tag) { scale<typename decltype(tag)::type>(out, beta); });
    return;
  }
  TIDE_CHECK(p.m <= kMaxBlasInt && p.n <= kMaxBlasInt && p.k <= kMaxBlasInt,
             "[gemm] matrix dimensions (", p.m, ", ", p.n, ", ", p.k, ") exceed BLAS's index range ",
             kMaxBlasInt, "; split the product into smaller blocks");
  p.a_offsets = batch_offsets(a, p.batch);
  p.b_offsets = batch_offsets(b, p.batch);
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      gemm_blas<T>(p, out, a, b, beta.to<T>(), alpha.to<T>());
    } else if constexpr (is_reduced_float<T>::value) {
      gemm_widened<T>(p, out, a, b, beta.to<float>(), alpha.to<float>());
    } else if constexpr (std::is_same_v<T, bool>) {
      TIDE_INTERNAL_ASSERT(false, "gemm does not support bool; the op front end rejects it");
    } else {
      gemm_loop<T>(p, out, a, b, beta.to<T>(), alpha.to<T>());
    }
  });
}

}  // namespace tide::kernels
