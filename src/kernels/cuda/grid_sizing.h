#pragma once
// Grid sizes for the grid-stride kernels of the reduction, softmax, loss, index, cat and random
// launchers, on top of launch_config.h's math (Note [GPU launch configuration]). Plain C++.

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/launch_config.h"
#include "kernels/cuda/runtime_interface.h"

namespace tide::kernels::cuda {

/// Blocks of `block_threads` threads that are resident on the whole device at once (one wave).
inline int64_t resident_blocks(const LaunchContext& ctx, int block_threads) {
  return int64_t{std::max(ctx.sm_count, 1)} *
         std::max(1, ctx.max_threads_per_sm / std::max(block_threads, 1));
}

/// gridDim.x for a grid-stride kernel with `work_blocks` blocks of work: at least 1, at most
/// max_grid_blocks (a few waves; the kernel loops over the rest), so also far below the 2^31 - 1
/// limit for any tensor. gridDim.y carries only small counts here (splits, batch entries).
inline unsigned grid_for(int64_t work_blocks, const LaunchContext& ctx, int block_threads) {
  const int64_t cap = max_grid_blocks(block_threads, ctx.sm_count, ctx.max_threads_per_sm);
  return static_cast<unsigned>(std::clamp<int64_t>(work_blocks, 1, cap));
}

}  // namespace tide::kernels::cuda
