// A tiled matrix-product kernel over arbitrary strides (gemm_fallback.h says when it runs).
// Plain and correct rather than fast: cuBLAS serves every floating product it can take.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/gemm_fallback.h"
#include "kernels/convert.h"
#include "tide/half.h"

namespace tide::kernels::cuda {
namespace {

constexpr int kTile = 16;

/// What the products are summed in: float for 16-bit floats, the type itself for float and
/// double, and for integers the unsigned type of at least 32 bits, whose arithmetic wraps
/// (signed overflow would be undefined); the final conversion to T keeps the low bits, which is
/// the cpu loop's wrapping result.
template <class T> struct gemm_acc { using type = kernels::compute_t<T>; };
template <> struct gemm_acc<uint8_t> { using type = uint32_t; };
template <> struct gemm_acc<int32_t> { using type = uint32_t; };
template <> struct gemm_acc<int64_t> { using type = uint64_t; };
template <class T> using gemm_acc_t = typename gemm_acc<T>::type;

template <class Acc, class T>
__device__ inline Acc load(const T* p) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<Acc>(*p);  // signed to unsigned: modular, as wanted
  } else {
    return kernels::convert<Acc>(*p);
  }
}

template <class T>
struct Params {
  T* c;
  const T* a;
  const T* b;
  int64_t m, n, k, batch;
  int64_t a_bs, a_rs, a_cs, b_bs, b_rs, b_cs;
  gemm_acc_t<T> alpha, beta;
  int64_t tiles_m, tiles_n;
};

// Block (kTile x kTile) threads computes one (kTile x kTile) tile of c; blocks stride over
// all tiles of all matrices, so the grid never depends on the problem's size.
template <class T>
__global__ void __launch_bounds__(kTile* kTile) strided_gemm_kernel(Params<T> p) {
  using Acc = gemm_acc_t<T>;
  __shared__ Acc a_tile[kTile][kTile + 1];
  __shared__ Acc b_tile[kTile][kTile + 1];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int64_t per_matrix = p.tiles_m * p.tiles_n;
  const int64_t total = p.batch * per_matrix;
  for (int64_t t = blockIdx.x; t < total; t += gridDim.x) {  // uniform across the block
    const int64_t mat = t / per_matrix, r = t % per_matrix;
    const int64_t row = (r / p.tiles_n) * kTile + ty;
    const int64_t col = (r % p.tiles_n) * kTile + tx;
    const T* a = p.a + mat * p.a_bs;
    const T* b = p.b + mat * p.b_bs;
    Acc acc = Acc(0);
    for (int64_t k0 = 0; k0 < p.k; k0 += kTile) {
      const int64_t ka = k0 + tx, kb = k0 + ty;
      a_tile[ty][tx] = row < p.m && ka < p.k ? load<Acc>(a + row * p.a_rs + ka * p.a_cs) : Acc(0);
      b_tile[ty][tx] = kb < p.k && col < p.n ? load<Acc>(b + kb * p.b_rs + col * p.b_cs) : Acc(0);
      __syncthreads();
#pragma unroll
      for (int q = 0; q < kTile; ++q) acc += a_tile[ty][q] * b_tile[q][tx];
      __syncthreads();
    }
    if (row < p.m && col < p.n) {
      T* c = p.c + mat * p.m * p.n + row * p.n + col;
      Acc out = p.alpha * acc;
      if (p.beta != Acc(0)) out += p.beta * load<Acc>(c);  // beta == 0 never reads c
      *c = kernels::convert<T>(out);
    }
  }
}

template <class T>
void launch_typed(const StridedGemm& g, cudaStream_t stream, int sm_count) {
  using Acc = gemm_acc_t<T>;
  Params<T> p;
  p.c = static_cast<T*>(g.c);
  p.a = static_cast<const T*>(g.a);
  p.b = static_cast<const T*>(g.b);
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.batch = g.batch;
  p.a_bs = g.a_batch_stride;
  p.a_rs = g.a_row_stride;
  p.a_cs = g.a_col_stride;
  p.b_bs = g.b_batch_stride;
  p.b_rs = g.b_row_stride;
  p.b_cs = g.b_col_stride;
  if constexpr (std::is_integral_v<T>) {
    p.alpha = static_cast<Acc>(g.alpha_int);
    p.beta = static_cast<Acc>(g.beta_int);
  } else {
    p.alpha = static_cast<Acc>(g.alpha);
    p.beta = static_cast<Acc>(g.beta);
  }
  // k == 0: the product is zero; a zero alpha keeps an infinite alpha from making it NaN.
  if (g.k == 0) p.alpha = Acc(0);
  p.tiles_m = (g.m + kTile - 1) / kTile;
  p.tiles_n = (g.n + kTile - 1) / kTile;
  const int64_t total = g.batch * p.tiles_m * p.tiles_n;
  if (total == 0) return;
  // Enough resident blocks to fill every multiprocessor several times over (256 threads each).
  const int64_t resident = static_cast<int64_t>(std::max(sm_count, 1)) * 8 * 4;
  const auto blocks = static_cast<unsigned>(std::min(total, resident));
  strided_gemm_kernel<T><<<blocks, dim3(kTile, kTile), 0, stream>>>(p);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_strided_gemm(const StridedGemm& g, CUstream_st* stream, int sm_count) {
  switch (g.dtype) {
    case kUInt8: return launch_typed<uint8_t>(g, stream, sm_count);
    case kInt32: return launch_typed<int32_t>(g, stream, sm_count);
    case kInt64: return launch_typed<int64_t>(g, stream, sm_count);
    case kFloat16: return launch_typed<Half>(g, stream, sm_count);
    case kBFloat16: return launch_typed<BFloat16>(g, stream, sm_count);
    case kFloat32: return launch_typed<float>(g, stream, sm_count);
    case kFloat64: return launch_typed<double>(g, stream, sm_count);
    case kBool: break;
  }
  TIDE_INTERNAL_ASSERT(false, "gemm does not support bool; the op front end rejects it");
}

}  // namespace tide::kernels::cuda
