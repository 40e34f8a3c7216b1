// How GPU reductions are cut into blocks (Note [GPU reduction plans]), checked without a GPU.

#include "kernels/cuda/reduce_plan.h"

#include <gtest/gtest.h>

using namespace tide::kernels::cuda;
using tide::kernels::ReduceShape;
using Kind = GpuReducePlan::Kind;

namespace {

/// An H100: 132 SMs, 2048 resident threads each.
LaunchContext h100() {
  LaunchContext c;
  c.sm_count = 132;
  c.max_threads_per_sm = 2048;
  return c;
}

/// Every reduced element lies in exactly one piece, and no piece is empty.
void expect_pieces_cover(const GpuReducePlan& p, int64_t reduced) {
  ASSERT_GE(p.splits, 1);
  EXPECT_LE(p.splits, kMaxSplits);
  EXPECT_GE(p.chunk * p.splits, reduced);
  EXPECT_LT(p.chunk * (p.splits - 1), reduced);  // the last piece is not empty
}

}  // namespace

TEST(GpuReducePlan, ShortRowsTakeAWarpEachAndAreNotSplit) {
  const GpuReducePlan p = plan_gpu_reduction(ReduceShape{1000, 512, 1}, h100());
  EXPECT_EQ(p.kind, Kind::WarpPerRow);
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.chunk, 512);
  EXPECT_EQ(p.grid_x, 125u);  // 8 rows (warps) a 256-thread block
}

TEST(GpuReducePlan, AWholeTensorSumIsSplitToFillTheDevice) {
  const int64_t n = int64_t{1} << 24;
  const GpuReducePlan p = plan_gpu_reduction(ReduceShape{1, n, 1}, h100());
  EXPECT_EQ(p.kind, Kind::BlockPerRow);
  EXPECT_EQ(p.grid_x, 1u);
  // One wave is 132 * 8 = 1056 blocks; the cap of 1024 pieces applies.
  EXPECT_EQ(p.splits, kMaxSplits);
  expect_pieces_cover(p, n);
  EXPECT_GE(p.chunk, kMinRowPiece);
}

TEST(GpuReducePlan, PiecesNeverGetShorterThanTheMinimum) {
  const int64_t n = 3 * kMinRowPiece + 1;
  const GpuReducePlan p = plan_gpu_reduction(ReduceShape{1, n, 1}, h100());
  EXPECT_EQ(p.kind, Kind::BlockPerRow);
  EXPECT_EQ(p.splits, 4);  // ceil(n / kMinRowPiece)
  expect_pieces_cover(p, n);
}

TEST(GpuReducePlan, ManyLongRowsFillTheDeviceWithoutSplitting) {
  const GpuReducePlan p = plan_gpu_reduction(ReduceShape{100000, 5000, 1}, h100());
  EXPECT_EQ(p.kind, Kind::BlockPerRow);
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.chunk, 5000);
}

TEST(GpuReducePlan, ColumnReductionsUseTilesAndSplitTallColumns) {
  // Reducing dim 0 of a (1 << 20, 64) matrix: 64 outputs make 2 tiles, far from a wave.
  const GpuReducePlan p = plan_gpu_reduction(ReduceShape{1, int64_t{1} << 20, 64}, h100());
  EXPECT_EQ(p.kind, Kind::Columns);
  EXPECT_EQ(p.grid_x, 2u);
  EXPECT_GT(p.splits, 1);
  expect_pieces_cover(p, int64_t{1} << 20);
  EXPECT_GE(p.chunk, kMinColumnPiece);
}

TEST(GpuReducePlan, AnEmptyReducedDimIsOnePieceOfNothing) {
  const GpuReducePlan rows = plan_gpu_reduction(ReduceShape{1, 0, 1}, h100());
  EXPECT_EQ(rows.splits, 1);
  EXPECT_EQ(rows.chunk, 0);
  const GpuReducePlan cols = plan_gpu_reduction(ReduceShape{4, 0, 8}, h100());
  EXPECT_EQ(cols.kind, Kind::Columns);
  EXPECT_EQ(cols.splits, 1);
  EXPECT_EQ(cols.chunk, 0);
}

TEST(GpuReducePlan, GridsStayWithinTheHardwareLimits) {
  const int64_t huge = int64_t{1} << 40;
  const GpuReducePlan p = plan_gpu_reduction(ReduceShape{huge, 2, 1}, h100());
  EXPECT_GE(p.grid_x, 1u);
  EXPECT_LE(p.grid_x, 2147483647u);
  EXPECT_LE(p.splits, 65535);  // gridDim.y
}
