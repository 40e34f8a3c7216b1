// Launch-configuration math of the GPU kernels (Note [GPU launch configuration]).

#include "kernels/cuda/launch_config.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace tide::kernels::cuda;

namespace {

constexpr int kThreads = kElementwiseThreads;
constexpr int kH100Sms = 132;
constexpr int kThreadsPerSm = 2048;

int64_t blocks(int64_t n, int64_t items_per_thread = 1, int sms = kH100Sms) {
  return grid_blocks(n, items_per_thread, kThreads, sms, kThreadsPerSm);
}

// A 16-byte aligned buffer; the tests only form pointers into it, never dereference them.
alignas(64) char buffer[256];

VectorOperand operand(int64_t byte_offset, int64_t element_size, bool contiguous = true) {
  return VectorOperand{buffer + byte_offset, element_size, contiguous};
}

}  // namespace

TEST(GridBlocks, LaunchesNothingForNoElements) {
  EXPECT_EQ(blocks(0), 0);
  EXPECT_EQ(blocks(-1), 0);
}

TEST(GridBlocks, GivesTinyTensorsOneBlock) {
  EXPECT_EQ(blocks(1), 1);
  EXPECT_EQ(blocks(kThreads), 1);
  EXPECT_EQ(blocks(kThreads * 4, 4), 1);
}

TEST(GridBlocks, CoversNInOneStepBelowTheCap) {
  EXPECT_EQ(blocks(kThreads + 1), 2);
  EXPECT_EQ(blocks(1000 * kThreads), 1000);
  EXPECT_EQ(blocks(1000 * kThreads + 1), 1001);
  // Four elements per thread need a quarter of the blocks, rounded up.
  EXPECT_EQ(blocks(1000 * kThreads, 4), 250);
  EXPECT_EQ(blocks(1000 * kThreads + 1, 4), 251);
}

TEST(GridBlocks, CapsAtFourWavesOfResidentBlocks) {
  // 2048 threads per SM hold 8 blocks of 256; 4 waves over 132 SMs.
  const int64_t cap = int64_t{kH100Sms} * 8 * kWavesPerGrid;
  EXPECT_EQ(max_grid_blocks(kThreads, kH100Sms, kThreadsPerSm), cap);
  EXPECT_EQ(blocks(cap * kThreads), cap);
  EXPECT_EQ(blocks(cap * kThreads + 1), cap);  // the grid-stride loop takes the rest
  EXPECT_EQ(blocks(int64_t{1} << 30), cap);
}

TEST(GridBlocks, ScalesTheCapWithTheSmCount) {
  EXPECT_EQ(blocks(int64_t{1} << 30, 1, 1), 8 * kWavesPerGrid);
  EXPECT_EQ(blocks(int64_t{1} << 30, 1, 2 * kH100Sms), 2 * blocks(int64_t{1} << 30));
}

TEST(GridBlocks, TreatsAnUnknownSmCountAsOne) {
  EXPECT_EQ(blocks(int64_t{1} << 30, 1, 0), 8 * kWavesPerGrid);
  EXPECT_EQ(blocks(int64_t{1} << 30, 1, -3), 8 * kWavesPerGrid);
  EXPECT_EQ(blocks(5, 1, 0), 1);
}

TEST(GridBlocks, HandlesSizesBeyondInt32WithoutOverflow) {
  const int64_t cap = max_grid_blocks(kThreads, kH100Sms, kThreadsPerSm);
  EXPECT_EQ(blocks((int64_t{1} << 31) + 1), cap);
  EXPECT_EQ(blocks(int64_t{1} << 40, 16), cap);
  EXPECT_EQ(blocks(std::numeric_limits<int64_t>::max()), cap);
  EXPECT_EQ(blocks(std::numeric_limits<int64_t>::max(), 16), cap);
  // On a huge imaginary device the uncapped count would exceed gridDim.x's limit.
  const int big = std::numeric_limits<int>::max();
  EXPECT_EQ(grid_blocks(std::numeric_limits<int64_t>::max(), 1, 1, big, big), kMaxGridX);
  EXPECT_EQ(max_grid_blocks(1, big, big), kMaxGridX);
}

TEST(CeilDiv, RoundsUpWithoutOverflow) {
  EXPECT_EQ(ceil_div(0, 4), 0);
  EXPECT_EQ(ceil_div(1, 4), 1);
  EXPECT_EQ(ceil_div(8, 4), 2);
  EXPECT_EQ(ceil_div(9, 4), 3);
  EXPECT_EQ(ceil_div(std::numeric_limits<int64_t>::max(), 1), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ceil_div(std::numeric_limits<int64_t>::max(), 2), int64_t{1} << 62);
}

TEST(MaxVectorWidth, MovesSixteenBytesOfTheWidestOperand) {
  static_assert(max_vector_width({1}) == 16);
  static_assert(max_vector_width({2}) == 8);
  static_assert(max_vector_width({4}) == 4);
  static_assert(max_vector_width({8}) == 2);
  static_assert(max_vector_width({4, 4, 1}) == 4);  // float comparison into bool
  static_assert(max_vector_width({1, 8}) == 2);     // double into uint8
  EXPECT_EQ(max_vector_width({}), 16);               // fill of one byte has only the output
}

TEST(VectorWidth, IsFullForAlignedContiguousOperands) {
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4), operand(32, 4)}, 1024), 4);
  EXPECT_EQ(vector_width({operand(0, 8), operand(16, 8)}, 1024), 2);
  EXPECT_EQ(vector_width({operand(0, 2), operand(16, 2)}, 1024), 8);
  EXPECT_EQ(vector_width({operand(0, 1)}, 1024), 16);
}

TEST(VectorWidth, LetsNarrowOperandsUseNarrowerAccesses) {
  // float < float -> bool: 4 lanes, the bool output needs only 4-byte alignment.
  EXPECT_EQ(vector_width({operand(4, 1), operand(0, 4), operand(16, 4)}, 1024), 4);
  EXPECT_EQ(vector_width({operand(2, 1), operand(0, 4), operand(16, 4)}, 1024), 2);
}

TEST(VectorWidth, HalvesForMisalignedPointers) {
  // A float view starting one element in is 4-byte aligned only.
  EXPECT_EQ(vector_width({operand(0, 4), operand(4, 4)}, 1024), 1);
  EXPECT_EQ(vector_width({operand(0, 4), operand(8, 4)}, 1024), 2);
  EXPECT_EQ(vector_width({operand(24, 4), operand(0, 4)}, 1024), 2);
  EXPECT_EQ(vector_width({operand(0, 2), operand(4, 2)}, 1024), 2);
  EXPECT_EQ(vector_width({operand(3, 1)}, 1024), 1);
  EXPECT_EQ(vector_width({operand(8, 8)}, 1024), 1);
}

TEST(VectorWidth, KeepsTheWidthForOddSizesAsTheTailIsHandled) {
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4)}, 1001), 4);
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4)}, 5), 4);
  EXPECT_EQ(vector_width({operand(0, 1)}, 17), 16);
}

TEST(VectorWidth, NeverExceedsTheElementCount) {
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4)}, 3), 2);
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4)}, 1), 1);
  EXPECT_EQ(vector_width({operand(0, 1)}, 15), 8);
}

TEST(VectorWidth, IsOneWhenAnyOperandIsNotContiguous) {
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4, false)}, 1024), 1);
  EXPECT_EQ(vector_width({operand(0, 4, false)}, 1024), 1);
}

TEST(VectorWidth, HandlesSizesBeyondInt32) {
  const int64_t n = (int64_t{1} << 33) + 3;
  EXPECT_EQ(vector_width({operand(0, 4), operand(16, 4)}, n), 4);
  EXPECT_EQ(vector_width({operand(0, 1), operand(16, 1)}, n), 16);
}
