#pragma once
// Launch-configuration math for the GPU kernels, in plain C++ (unit-tested without a GPU).

#include <algorithm>
#include <cstdint>
#include <initializer_list>

namespace tide::kernels::cuda {

// Note [GPU launch configuration]: elementwise kernels use 256-thread blocks: a multiple of the
// warp size, small enough that 8 blocks fit on an SM (2048 threads on sm_80/sm_90), so a
// partially filled last wave wastes little. Each thread handles a fixed number of elements per
// step (`items_per_thread`: one 128-bit vector on the vectorized path, one element on the
// strided path) and then strides by the whole grid, so the grid never has to cover n: it is
// capped at kWavesPerGrid full waves of resident blocks (sm_count * blocks_per_sm * waves),
// which keeps every SM busy, bounds the launch for huge tensors, and keeps blockIdx.x far below
// the 2^31 - 1 limit of gridDim.x (the cap also enforces that limit). Small tensors get just
// enough blocks: a 1-element op launches one block.
//
// Vectorization: on the contiguous fast path each thread moves 16 bytes (one 128-bit load or
// store, the widest a thread can issue) of the widest operand per step; narrower operands
// (a bool output of a float comparison, the int8 side of a conversion) move the same number of
// elements in a narrower access. That is legal only when every operand is contiguous and its
// data pointer is aligned to its access size — a view starting at an odd element offset is
// not. The `numel % width` leftover elements are handled element by element by the same
// kernel, so an odd size does not disqualify a tensor; a tensor smaller than one vector gains
// nothing and takes the scalar path. vector_width() halves the width until every operand
// qualifies; the launchers instantiate only the full width and fall back to the strided path
// otherwise (one more width per functor would multiply the instantiations for a rare case).

/// Threads per block of the elementwise kernels.
inline constexpr int kElementwiseThreads = 256;
/// Full waves of resident blocks a grid-stride launch is capped at.
inline constexpr int kWavesPerGrid = 4;
/// gridDim.x limit on every architecture since sm_30.
inline constexpr int64_t kMaxGridX = 2147483647;
/// Bytes one thread moves per vectorized access of the widest operand.
inline constexpr int kVectorBytes = 16;

/// ceil(a / b) for a >= 0, b > 0, without overflow near INT64_MAX.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// The largest grid worth launching on a device: kWavesPerGrid waves of resident blocks of
/// `threads` threads (at least one block per SM), never above kMaxGridX.
constexpr int64_t max_grid_blocks(int threads, int sm_count, int max_threads_per_sm) {
  const int64_t sms = std::max(sm_count, 1);
  const int64_t per_sm = std::max<int64_t>(max_threads_per_sm / std::max(threads, 1), 1);
  const int64_t resident = std::min(sms * per_sm, kMaxGridX);  // < 2^62: no overflow
  return std::min(resident * kWavesPerGrid, kMaxGridX);
}

/// Blocks for `n` elements when each of `threads` threads handles `items_per_thread` elements
/// per grid-stride step: enough to cover n in one step, capped by max_grid_blocks (the kernel
/// loops over the rest). 0 for n == 0 (launchers return before launching).
constexpr int64_t grid_blocks(int64_t n, int64_t items_per_thread, int threads, int sm_count,
                              int max_threads_per_sm) {
  if (n <= 0) return 0;
  const int64_t per_block = std::max<int64_t>(items_per_thread, 1) * std::max(threads, 1);
  return std::min(ceil_div(n, per_block), max_grid_blocks(threads, sm_count, max_threads_per_sm));
}

/// Elements per vectorized access for operands of these element sizes: 16 bytes of the widest.
constexpr int max_vector_width(std::initializer_list<int64_t> element_sizes) {
  int64_t widest = 1;
  for (int64_t s : element_sizes) widest = std::max(widest, s);
  return static_cast<int>(std::max<int64_t>(kVectorBytes / widest, 1));
}

/// One operand as vectorization sees it.
struct VectorOperand {
  const void* data = nullptr;
  int64_t element_size = 1;
  bool contiguous = true;  // contiguous over the op's whole iteration space
};

/// Elements per vectorized access usable for all `operands` over `numel` elements: starts at
/// max_vector_width and halves until every operand's pointer is aligned to width *
/// element_size bytes and width <= numel; 1 (no vectorization) when any operand is not
/// contiguous. Note [GPU launch configuration].
inline int vector_width(std::initializer_list<VectorOperand> operands, int64_t numel) {
  int64_t widest = 1;
  for (const VectorOperand& op : operands) {
    if (!op.contiguous) return 1;
    widest = std::max(widest, op.element_size);
  }
  int width = max_vector_width({widest});
  auto aligned = [&](int w) {
    for (const VectorOperand& op : operands) {
      const auto address = reinterpret_cast<uintptr_t>(op.data);
      if (address % static_cast<uintptr_t>(w * op.element_size) != 0) return false;
    }
    return true;
  };
  while (width > 1 && (width > numel || !aligned(width))) width /= 2;
  return width;
}

}  // namespace tide::kernels::cuda
