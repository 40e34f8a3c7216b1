#pragma once
// Warp and block reductions shared by the reduction, softmax and loss kernels.
//
// Note [Deterministic GPU reductions]: every combine below happens in a fixed tree order that
// depends only on the launch configuration, never on thread timing (no atomics), so one
// input gives the same bits on every run. Float sums still differ from the cpu's cascade in
// the last bits (another order); max/min combine with combine_extremum, which does not depend
// on the order at all, so their values and indices match the cpu exactly.

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/functors.h"
#include "kernels/reduce_functors.h"

namespace tide::kernels::cuda {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullWarp = 0xffffffffu;

/// __shfl_down_sync for any trivially copyable scalar of at most 8 bytes (bool, uint8, Half...
/// travel as the low bits of a 32-bit word).
template <class T>
__device__ inline T shfl_down(T v, int delta) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
  if constexpr (sizeof(T) <= 4) {
    unsigned bits = 0;
    memcpy(&bits, &v, sizeof(T));
    bits = __shfl_down_sync(kFullWarp, bits, delta);
    memcpy(&v, &bits, sizeof(T));
  } else {
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    bits = __shfl_down_sync(kFullWarp, bits, delta);
    memcpy(&v, &bits, sizeof(T));
  }
  return v;
}

template <class T>
__device__ inline kernels::ValueIndex<T> shfl_down(kernels::ValueIndex<T> v, int delta) {
  return kernels::ValueIndex<T>{shfl_down(v.value, delta), shfl_down(v.index, delta)};
}

/// The combined value of all 32 lanes, in lane 0. Every lane of the warp must call it.
template <class T, class Op>
__device__ inline T warp_reduce(T v, Op op) {
  for (int delta = kWarpSize / 2; delta > 0; delta /= 2) v = op(v, shfl_down(v, delta));
  return v;
}

/// The combined value of the whole (1-D) block, in thread 0; `identity` fills the missing
/// warps. blockDim.x must be a multiple of 32 and every thread must call it (it syncs). Safe
/// to call several times in a row.
template <class T, class Op>
__device__ inline T block_reduce(T v, Op op, T identity) {
  // __shared__ variables cannot have initializers: reduce in compute_t<T> (float, not Half).
  static_assert(std::is_trivially_default_constructible_v<T>, "reduce in the compute type");
  __shared__ T warp_results[kWarpSize];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int warps = static_cast<int>(blockDim.x) / kWarpSize;
  v = warp_reduce(v, op);
  __syncthreads();  // an earlier call's readers are done with warp_results
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? warp_results[lane] : identity;
    v = warp_reduce(v, op);
  }
  return v;
}

/// block_reduce whose result every thread of the block receives.
template <class T, class Op>
__device__ inline T block_all_reduce(T v, Op op, T identity) {
  __shared__ T result;
  v = block_reduce(v, op, identity);
  if (threadIdx.x == 0) result = v;
  __syncthreads();
  v = result;
  __syncthreads();  // a later call may overwrite `result`
  return v;
}

template <class T>
struct SumOp {
  __device__ T operator()(T a, T b) const { return a + b; }
};

/// The max of two floating values, NaN when either is (as the cpu's softmax, where a NaN
/// anywhere makes the whole slice NaN).
template <class T>
struct MaxOp {
  __device__ T operator()(T a, T b) const {
    if (kernels::is_nan(a)) return a;
    return b > a || kernels::is_nan(b) ? b : a;
  }
};

/// Combines two partial max/min results in any order, with the cpu's answer: NaN wins over
/// every number, the smallest index wins among NaNs and among equal extremes, and index -1
/// marks an empty partial (a thread that saw no element).
template <class T, bool IsMax>
struct ExtremumOp {
  __device__ kernels::ValueIndex<T> operator()(kernels::ValueIndex<T> a,
                                               kernels::ValueIndex<T> b) const {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    const bool a_nan = kernels::is_nan(a.value), b_nan = kernels::is_nan(b.value);
    if (a_nan || b_nan) {
      if (a_nan && b_nan) return a.index <= b.index ? a : b;
      return a_nan ? a : b;
    }
    if (IsMax ? a.value > b.value : a.value < b.value) return a;
    if (IsMax ? b.value > a.value : b.value < a.value) return b;
    return a.index <= b.index ? a : b;
  }
};

/// The empty partial of ExtremumOp.
template <class T>
__device__ inline kernels::ValueIndex<T> no_extremum() {
  return kernels::ValueIndex<T>{T(0), -1};
}

}  // namespace tide::kernels::cuda
