#pragma once
// How the sum and max/min launchers cut a reduction into blocks. Plain C++ (unit-testable
// without a GPU).

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels::cuda {

/// Note [GPU reduction plans]: a reduction of (outer, reduced, inner) (Note [Reduction
/// shape]) runs as one of three kernels:
/// - WarpPerRow (inner == 1, short rows): a warp reduces a contiguous row; 8 rows a block.
/// - BlockPerRow (inner == 1, long rows): a block reduces a row, or one of `splits` pieces of
///   it when there are too few rows to fill the device (the whole-tensor case (1, N, 1)).
/// - Columns (inner > 1): a 32 x 8 block reduces 32 neighbouring outputs, the 32 lanes reading
///   consecutive addresses, 8 rows at a time; the reduced dim is likewise cut into `splits`
///   pieces when there are too few outputs.
/// With splits > 1 each piece's block writes a partial result into a temporary from the
/// caching allocator (stream-ordered, so it is free for reuse as soon as the launcher returns)
/// and a second kernel combines each output's partials, a warp per output. Two passes rather
/// than atomics: the result does not depend on timing (Note [Deterministic GPU reductions]).
struct GpuReducePlan {
  enum class Kind { WarpPerRow, BlockPerRow, Columns };
  Kind kind = Kind::WarpPerRow;
  int64_t splits = 1;  // pieces of the reduced dim (gridDim.y)
  int64_t chunk = 0;   // reduced elements per piece
  unsigned grid_x = 1;
};

inline constexpr int kReduceThreads = 256;
inline constexpr int kColumnWidth = 32;  // blockDim.x of Columns
inline constexpr int kColumnLanes = 8;   // blockDim.y of Columns
inline constexpr int64_t kWarpRowMax = 1024;
inline constexpr int64_t kMinRowPiece = 4096;    // 16 elements a thread at least
inline constexpr int64_t kMinColumnPiece = 128;  // 16 rows a lane at least
inline constexpr int64_t kMaxSplits = 1024;      // a warp combines them in <= 32 steps a lane

/// Pieces of `len` elements, each at least `min_piece`, so that `blocks` blocks become about
/// `target`; chunk is then the piece length (no empty piece).
inline void split_reduced(GpuReducePlan& plan, int64_t blocks, int64_t len, int64_t target,
                          int64_t min_piece) {
  int64_t splits = 1;
  if (len > 0 && blocks < target) {
    splits = std::min({ceil_div(target, blocks), ceil_div(len, min_piece), kMaxSplits});
    splits = std::max<int64_t>(splits, 1);
  }
  plan.chunk = len > 0 ? ceil_div(len, splits) : 0;
  plan.splits = len > 0 ? ceil_div(len, plan.chunk) : 1;
}

/// The plan for a reduction with at least one output.
inline GpuReducePlan plan_gpu_reduction(kernels::ReduceShape s, const LaunchContext& ctx) {
  GpuReducePlan plan;
  const int64_t target = resident_blocks(ctx, kReduceThreads);
  if (s.inner == 1) {
    if (s.reduced <= kWarpRowMax) {
      plan.kind = GpuReducePlan::Kind::WarpPerRow;
      plan.chunk = s.reduced;
      plan.grid_x = grid_for(ceil_div(s.outer, kReduceThreads / 32), ctx, kReduceThreads);
      return plan;
    }
    plan.kind = GpuReducePlan::Kind::BlockPerRow;
    split_reduced(plan, s.outer, s.reduced, target, kMinRowPiece);
    plan.grid_x = grid_for(s.outer, ctx, kReduceThreads);
    return plan;
  }
  plan.kind = GpuReducePlan::Kind::Columns;
  const int64_t tiles = ceil_div(s.outer * s.inner, kColumnWidth);
  split_reduced(plan, tiles, s.reduced, target, kMinColumnPiece);
  plan.grid_x = grid_for(tiles, ctx, kReduceThreads);
  return plan;
}

}  // namespace tide::kernels::cuda
