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

#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "core/philox.h"
#include "kernels/convert.h"
#include "kernels/distributions.h"

namespace tide::kernels::cuda {
namespace {

using detail::PhiloxStart;
using kernels::convert;

constexpr int kRandomThreads = 256;
constexpr uint64_t kTwoPow32 = uint64_t{1} << 32;

// The per-block transforms: element `base + l` of `n` from the block's words `w`.

template <class T>
struct UniformBlock {
  static constexpr int kElements = 4;  // a word each
  double from, to;
  __device__ void operator()(T* out, int64_t base, int lanes, const philox::Words4& w) const {
    for (int l = 0; l < lanes; ++l) out[base + l] = kernels::uniform_from_word<T>(w.w[l], from, to);
  }
};

template <class T>
struct NormalBlock {
  static constexpr int kElements = 4;  // Box-Muller pairs (words 0, 1) and (2, 3)
  double mean, std;
  __device__ void operator()(T* out, int64_t base, int lanes, const philox::Words4& w) const {
    for (int pair = 0; 2 * pair < lanes; ++pair) {
      double z0, z1;
      kernels::box_muller(w.w[2 * pair], w.w[2 * pair + 1], z0, z1);
      out[base + 2 * pair] = kernels::normal_from_standard<T>(z0, mean, std);
      if (2 * pair + 1 < lanes) out[base + 2 * pair + 1] = kernels::normal_from_standard<T>(z1, mean, std);
    }
  }
};

template <class T>
__device__ inline void store_int(T* out, int64_t i, int64_t low, uint64_t v) {
  out[i] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + v));
}

/// range <= 2^32: a word per element.
template <class T>
struct NarrowIntBlock {
  static constexpr int kElements = 4;
  int64_t low;
  uint64_t range;
  __device__ void operator()(T* out, int64_t base, int lanes, const philox::Words4& w) const {
    for (int l = 0; l < lanes; ++l) store_int(out, base + l, low, w.w[l] % range);
  }
};

/// range > 2^32: two words (low, high) per element.
template <class T>
struct WideIntBlock {
  static constexpr int kElements = 2;
  int64_t low;
  uint64_t range;
  __device__ void operator()(T* out, int64_t base, int lanes, const philox::Words4& w) const {
    for (int l = 0; l < lanes; ++l) {
      const uint64_t v = static_cast<uint64_t>(w.w[2 * l]) |
                         (static_cast<uint64_t>(w.w[2 * l + 1]) << 32);
      store_int(out, base + l, low, v % range);
    }
  }
};

/// A thread per Philox block c (grid-stride), writing elements [c * kElements, ...) of `n`.
template <class T, class Block>
__global__ void __launch_bounds__(kRandomThreads)
    philox_kernel(T* out, int64_t n, PhiloxStart start, Block block) {
  constexpr int per = Block::kElements;
  const int64_t blocks = ceil_div(n, per);
  for (int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; c < blocks;
       c += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const philox::Words4 w = philox::block(start.seed, start.offset + static_cast<uint64_t>(c));
    const int64_t base = c * per;
    block(out, base, static_cast<int>(n - base < per ? n - base : per), w);
  }
}

template <class T, class Block>
void launch_philox(const Tensor& t, PhiloxStart start, Block block) {
  const LaunchContext& ctx = current_launch();
  const int64_t n = t.numel();
  const unsigned grid =
      grid_for(ceil_div(ceil_div(n, Block::kElements), kRandomThreads), ctx, kRandomThreads);
  philox_kernel<T><<<grid, kRandomThreads, 0, ctx.stream>>>(static_cast<T*>(t.raw_data()), n,
                                                            start, block);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

template <class T>
inline constexpr bool kFloating = kernels::is_reduced_float<T>::value || std::is_floating_point_v<T>;

}  // namespace

void uniform_cuda(const Tensor& t, PhiloxStart start, double from, double to) {
  TIDE_INTERNAL_ASSERT(kernels::dense(t));
  if (t.numel() == 0) return;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) launch_philox<T>(t, start, UniformBlock<T>{from, to});
  });
}

void normal_cuda(const Tensor& t, PhiloxStart start, double mean, double std) {
  TIDE_INTERNAL_ASSERT(kernels::dense(t));
  if (t.numel() == 0) return;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) launch_philox<T>(t, start, NormalBlock<T>{mean, std});
  });
}

void randint_cuda(const Tensor& t, PhiloxStart start, int64_t low, uint64_t range) {
  TIDE_INTERNAL_ASSERT(kernels::dense(t));
  if (t.numel() == 0) return;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (range <= kTwoPow32) {
      launch_philox<T>(t, start, NarrowIntBlock<T>{low, range});
    } else {
      launch_philox<T>(t, start, WideIntBlock<T>{low, range});
    }
  });
}

}  // namespace tide::kernels::cuda
