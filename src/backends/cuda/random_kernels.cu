// GPU launchers of uniform_stub, normal_stub and randint_stub: the cpu's numbers
// (kernels/cpu/random_kernels.cpp) for the same PhiloxStart. A thread computes one Philox block
// (core/philox.h) and writes the elements its words make, as Note [Random transforms] assigns
// them; blocks are independent, so the grid's shape changes nothing.
//
// The transforms are kernels/distributions.h's, shared with the cpu; see Note [Random
// transforms] there for why the GPU's numbers are the cpu's (and where float64 normals may
// differ in the last bits).

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/grid_sizing.h"
#include "backends/cuda/launch_context.h"
#include "backends/cuda/reduce_index_random_launchers.h"
#include "core/philox.h"
#include "kernels/convert.h"
#include "kernels/distributions.h"

namespace tide::backends::cuda {
namespace {

using detail::PhiloxStart;
using kernels::convert;

constexpr int kRandomThreads = 256;
constexpr uint64_t kTwoPow32 = uint64_t{1} << 32;

template <class T>
__global__ void __launch_bounds__(kRandomThreads)
    uniform_kernel(T* out, int64_t n, PhiloxStart start, double from, double to) {
  const int64_t blocks = ceil_div(n, 4);
  for (int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; c < blocks;
       c += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const philox::Words4 w = philox::block(start.seed, start.offset + static_cast<uint64_t>(c));
    const int64_t base = c * 4;
    const int lanes = static_cast<int>(n - base < 4 ? n - base : 4);
    for (int l = 0; l < lanes; ++l) out[base + l] = kernels::uniform_from_word<T>(w.w[l], from, to);
  }
}

template <class T>
__global__ void __launch_bounds__(kRandomThreads)
    normal_kernel(T* out, int64_t n, PhiloxStart start, double mean, double std) {
  const int64_t blocks = ceil_div(n, 4);
  for (int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; c < blocks;
       c += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const philox::Words4 w = philox::block(start.seed, start.offset + static_cast<uint64_t>(c));
    const int64_t base = c * 4;
    for (int pair = 0; pair < 2; ++pair) {
      const int64_t i = base + 2 * pair;
      if (i >= n) break;
      double z0, z1;
      kernels::box_muller(w.w[2 * pair], w.w[2 * pair + 1], z0, z1);
      out[i] = kernels::normal_from_standard<T>(z0, mean, std);
      if (i + 1 < n) out[i + 1] = kernels::normal_from_standard<T>(z1, mean, std);
    }
  }
}

template <class T>
__device__ inline void store_int(T* out, int64_t i, int64_t low, uint64_t v) {
  out[i] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + v));
}

// range <= 2^32: a word per element, four elements per block.
template <class T>
__global__ void __launch_bounds__(kRandomThreads)
    randint_narrow_kernel(T* out, int64_t n, PhiloxStart start, int64_t low, uint64_t range) {
  const int64_t blocks = ceil_div(n, 4);
  for (int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; c < blocks;
       c += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const philox::Words4 w = philox::block(start.seed, start.offset + static_cast<uint64_t>(c));
    const int64_t base = c * 4;
    const int lanes = static_cast<int>(n - base < 4 ? n - base : 4);
    for (int l = 0; l < lanes; ++l) store_int(out, base + l, low, w.w[l] % range);
  }
}

// range > 2^32: two words (low, high) per element, two elements per block.
template <class T>
__global__ void __launch_bounds__(kRandomThreads)
    randint_wide_kernel(T* out, int64_t n, PhiloxStart start, int64_t low, uint64_t range) {
  const int64_t blocks = ceil_div(n, 2);
  for (int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; c < blocks;
       c += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const philox::Words4 w = philox::block(start.seed, start.offset + static_cast<uint64_t>(c));
    const int64_t base = c * 2;
    const int lanes = static_cast<int>(n - base < 2 ? n - base : 2);
    for (int l = 0; l < lanes; ++l) {
      const uint64_t v = static_cast<uint64_t>(w.w[2 * l]) |
                         (static_cast<uint64_t>(w.w[2 * l + 1]) << 32);
      store_int(out, base + l, low, v % range);
    }
  }
}

template <class T>
inline constexpr bool kFloating = kernels::is_reduced_float<T>::value || std::is_floating_point_v<T>;

/// Blocks for `philox_blocks` threads of work.
unsigned random_grid(int64_t philox_blocks, const LaunchContext& ctx) {
  return grid_for(ceil_div(philox_blocks, kRandomThreads), ctx, kRandomThreads);
}

}  // namespace

void uniform_cuda(const Tensor& t, PhiloxStart start, double from, double to) {
  TIDE_INTERNAL_ASSERT(kernels::dense(t));
  const int64_t n = t.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      uniform_kernel<T><<<random_grid(ceil_div(n, 4), ctx), kRandomThreads, 0, stream>>>(
          static_cast<T*>(t.raw_data()), n, start, from, to);
      TIDE_CUDA_CHECK(cudaGetLastError());
    }
  });
}

void normal_cuda(const Tensor& t, PhiloxStart start, double mean, double std) {
  TIDE_INTERNAL_ASSERT(kernels::dense(t));
  const int64_t n = t.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      normal_kernel<T><<<random_grid(ceil_div(n, 4), ctx), kRandomThreads, 0, stream>>>(
          static_cast<T*>(t.raw_data()), n, start, mean, std);
      TIDE_CUDA_CHECK(cudaGetLastError());
    }
  });
}

void randint_cuda(const Tensor& t, PhiloxStart start, int64_t low, uint64_t range) {
  TIDE_INTERNAL_ASSERT(kernels::dense(t));
  const int64_t n = t.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = static_cast<T*>(t.raw_data());
    if (range <= kTwoPow32) {
      randint_narrow_kernel<T><<<random_grid(ceil_div(n, 4), ctx), kRandomThreads, 0, stream>>>(
          out, n, start, low, range);
    } else {
      randint_wide_kernel<T><<<random_grid(ceil_div(n, 2), ctx), kRandomThreads, 0, stream>>>(
          out, n, start, low, range);
    }
    TIDE_CUDA_CHECK(cudaGetLastError());
  });
}

}  // namespace tide::backends::cuda
