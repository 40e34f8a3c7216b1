// The strided GPU path's index math, run on the host (Note [Strided GPU path]).

#include "kernels/cuda/offset_calculator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "tide/factories.h"
#include "tide/tensor.h"

using namespace tide;
using kernels::cuda::fits_32bit_indexing;
using kernels::cuda::for_each_kernel_iter;
using kernels::cuda::kMaxKernelDims;
using kernels::cuda::make_offset_calculator;
using kernels::ElementwiseIter;

namespace {

/// Byte offset of row-major element `linear` of t, from t's own sizes and strides.
int64_t reference_offset(const Tensor& t, int64_t linear) {
  int64_t offset = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    const int64_t size = t.shape()[d];
    offset += (linear % size) * t.stride_vector()[d] * static_cast<int64_t>(t.element_size());
    linear /= size;
  }
  return offset;
}

/// Every element's offsets from the calculator equal the tensors' own, for both index types.
template <class Index>
void expect_offsets_match(const Tensor& out, const Tensor& in) {
  const ElementwiseIter it = ElementwiseIter::build({&out, &in});
  ASSERT_LE(it.shape.size(), kMaxKernelDims);
  const auto calc = make_offset_calculator<2, Index>(it);
  const char* out_base = static_cast<const char*>(out.raw_data());
  const char* in_base = static_cast<const char*>(in.raw_data());
  for (int64_t i = 0; i < out.numel(); ++i) {
    const auto o = calc.get(static_cast<Index>(i));
    EXPECT_EQ(it.data[0] + static_cast<int64_t>(o.v[0]), out_base + reference_offset(out, i)) << i;
    EXPECT_EQ(it.data[1] + static_cast<int64_t>(o.v[1]), in_base + reference_offset(in, i)) << i;
  }
}

template <class Index>
void expect_all_layouts_match() {
  const Tensor base = zeros({4, 5, 6});
  expect_offsets_match<Index>(zeros({4, 5, 6}), base);                   // coalesces to 1 dim
  expect_offsets_match<Index>(zeros({6, 5, 4}), base.permute({2, 1, 0}));  // transposed
  expect_offsets_match<Index>(zeros({4, 3, 6}), base.narrow(1, 1, 3));      // sliced
  expect_offsets_match<Index>(zeros({4, 5, 6}), zeros({5, 1}).expand({4, 5, 6}));  // broadcast
  expect_offsets_match<Index>(zeros({5, 6}, TensorOptions().dtype(kFloat64)),
                              base.select(0, 2).to(kFloat64).t().contiguous().t());
  expect_offsets_match<Index>(zeros({}), zeros({}));  // 0-dim: no dimension at all
}

/// 3 x 2^31 int8 elements, the input broadcast along the outer dimension. Nothing is
/// dereferenced; the base addresses are there for pointer arithmetic (a null base plus an
/// offset is undefined behaviour, which UBSan reports).
ElementwiseIter beyond_int32_iter() {
  static char base[2];
  ElementwiseIter it;
  it.num_operands = 2;
  it.numel = 3 * (int64_t{1} << 31);
  it.shape = DimVector{3, int64_t{1} << 31};
  it.strides[0] = DimVector{int64_t{1} << 31, 1};
  it.strides[1] = DimVector{0, 1};
  it.data[0] = &base[0];
  it.data[1] = &base[1];
  return it;
}

ElementwiseIter iter_1d(int64_t numel, int64_t out_stride, int64_t in_stride) {
  ElementwiseIter it;
  it.num_operands = 2;
  it.numel = numel;
  it.shape = DimVector{numel};
  it.strides[0] = DimVector{out_stride};
  it.strides[1] = DimVector{in_stride};
  return it;
}

}  // namespace

TEST(OffsetCalculator, MatchesTheTensorsOffsetsWith32BitIndices) {
  expect_all_layouts_match<uint32_t>();
}

TEST(OffsetCalculator, MatchesTheTensorsOffsetsWith64BitIndices) {
  expect_all_layouts_match<int64_t>();
}

TEST(OffsetCalculator, ComputesOffsetsBeyond32Bits) {
  const ElementwiseIter it = beyond_int32_iter();
  EXPECT_FALSE(fits_32bit_indexing(it));
  const auto calc = make_offset_calculator<2, int64_t>(it);
  const int64_t last = it.numel - 1;
  const auto o = calc.get(last);
  EXPECT_EQ(o.v[0], last);
  EXPECT_EQ(o.v[1], (int64_t{1} << 31) - 1);
  const auto mid = calc.get((int64_t{1} << 31) + 5);
  EXPECT_EQ(mid.v[0], (int64_t{1} << 31) + 5);
  EXPECT_EQ(mid.v[1], 5);
}

TEST(Fits32BitIndexing, AcceptsOffsetsUpToInt32Max) {
  const int64_t max = std::numeric_limits<int32_t>::max();
  EXPECT_TRUE(fits_32bit_indexing(iter_1d(1000, 4, 4)));
  EXPECT_TRUE(fits_32bit_indexing(iter_1d(max, 1, 1)));         // last offset max - 1
  EXPECT_TRUE(fits_32bit_indexing(iter_1d(2, max, 0)));         // last offset max
  EXPECT_TRUE(fits_32bit_indexing(iter_1d(max, 1, 0)));         // broadcast input
}

TEST(Fits32BitIndexing, RejectsLargeCountsOffsetsAndNegativeStrides) {
  const int64_t max = std::numeric_limits<int32_t>::max();
  EXPECT_FALSE(fits_32bit_indexing(iter_1d(max + 1, 1, 1)));   // too many elements
  EXPECT_FALSE(fits_32bit_indexing(iter_1d(max / 2, 1, 4)));   // input's last byte offset
  EXPECT_FALSE(fits_32bit_indexing(iter_1d(3, max, 1)));       // output's last byte offset
  EXPECT_FALSE(fits_32bit_indexing(iter_1d(2, 1, max + 1)));   // a stride alone
  EXPECT_FALSE(fits_32bit_indexing(iter_1d(4, 4, -4)));        // negative stride
}

TEST(Fits32BitIndexing, IgnoresTheStridesOfDimensionsOfSizeOne) {
  // A size-1 dimension is never stepped along: its stride reaches no element.
  const int64_t max = std::numeric_limits<int32_t>::max();
  EXPECT_TRUE(fits_32bit_indexing(iter_1d(1, 1, max + 1)));
  EXPECT_TRUE(fits_32bit_indexing(iter_1d(1, -4, 4)));
}

TEST(ForEachKernelIter, PassesShallowIteratorsThrough) {
  const Tensor a = zeros({4, 5});
  const Tensor b = zeros({5, 4}).t();
  const ElementwiseIter it = ElementwiseIter::build({&a, &b});
  int calls = 0;
  for_each_kernel_iter(it, [&](const ElementwiseIter& sub) {
    ++calls;
    EXPECT_EQ(sub.numel, it.numel);
    EXPECT_EQ(sub.data[0], it.data[0]);
  });
  EXPECT_EQ(calls, 1);
}

TEST(ForEachKernelIter, SplitsDeepIteratorsIntoLaunchableOnesCoveringEveryElement) {
  // 12 dims of size 2 read in reversed order: nothing coalesces, 12 dims > kMaxKernelDims.
  std::vector<int64_t> sizes(12, 2), reversed(12);
  for (int64_t d = 0; d < 12; ++d) reversed[d] = 11 - d;
  const Tensor out = zeros(sizes);
  const Tensor in = zeros(sizes).permute(reversed);
  const ElementwiseIter it = ElementwiseIter::build({&out, &in});
  ASSERT_EQ(it.shape.size(), 12);

  std::vector<int64_t> out_offsets, in_offsets;
  int launches = 0;
  for_each_kernel_iter(it, [&](const ElementwiseIter& sub) {
    ++launches;
    ASSERT_LE(sub.shape.size(), kMaxKernelDims);
    const auto calc = make_offset_calculator<2, uint32_t>(sub);
    for (int64_t i = 0; i < sub.numel; ++i) {
      const auto o = calc.get(static_cast<uint32_t>(i));
      out_offsets.push_back(sub.data[0] + o.v[0] - it.data[0]);
      in_offsets.push_back(sub.data[1] + o.v[1] - it.data[1]);
    }
  });
  EXPECT_EQ(launches, 4);  // the 2 x 2 outer indices
  ASSERT_EQ(static_cast<int64_t>(out_offsets.size()), out.numel());
  for (int64_t i = 0; i < out.numel(); ++i) {
    EXPECT_EQ(out_offsets[i], reference_offset(out, i)) << i;
    EXPECT_EQ(in_offsets[i], reference_offset(in, i)) << i;
  }
}

namespace {

/// (output offset, input offset) of every element of the pieces for_each_kernel_iter makes of
/// `it` under `limit`, sorted; checks that each piece fits the limit and counts them.
std::vector<std::pair<int64_t, int64_t>> split_offsets(const ElementwiseIter& it, int64_t limit,
                                                       int* pieces) {
  std::vector<std::pair<int64_t, int64_t>> offsets;
  for_each_kernel_iter(
      it,
      [&](const ElementwiseIter& sub) {
        ++*pieces;
        EXPECT_TRUE(fits_32bit_indexing(sub, limit));
        const auto calc = make_offset_calculator<2, uint32_t>(sub);
        for (int64_t i = 0; i < sub.numel; ++i) {
          const auto o = calc.get(static_cast<uint32_t>(i));
          offsets.emplace_back(sub.data[0] + o.v[0] - it.data[0],
                               sub.data[1] + o.v[1] - it.data[1]);
        }
      },
      limit);
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

}  // namespace

TEST(ForEachKernelIter, SplitsIteratorsBeyond32BitIndexingIntoPiecesCoveringEveryElementOnce) {
  // The int32 limit scaled down to 100 bytes, so that every piece can be enumerated.
  const Tensor base = zeros({6, 7, 8});
  const std::vector<std::pair<Tensor, Tensor>> layouts = {
      {zeros({6, 7, 8}), base},                             // contiguous: one dimension
      {zeros({8, 7, 6}), base.permute({2, 1, 0})},          // transposed
      {zeros({6, 3, 8}), base.narrow(1, 2, 3)},             // sliced
      {zeros({6, 7, 8}), zeros({7, 1}).expand({6, 7, 8})},  // broadcast
  };
  for (const auto& [out, in] : layouts) {
    const ElementwiseIter it = ElementwiseIter::build({&out, &in});
    std::vector<std::pair<int64_t, int64_t>> expected;
    for (int64_t i = 0; i < out.numel(); ++i) {
      expected.emplace_back(reference_offset(out, i), reference_offset(in, i));
    }
    std::sort(expected.begin(), expected.end());
    int pieces = 0;
    EXPECT_EQ(split_offsets(it, /*limit=*/100, &pieces), expected);
    EXPECT_GT(pieces, 1);
  }
}

TEST(ForEachKernelIter, SplitsACountBeyondInt32IntoFewPieces) {
  const ElementwiseIter it = beyond_int32_iter();
  int64_t covered = 0;
  int pieces = 0;
  for_each_kernel_iter(it, [&](const ElementwiseIter& sub) {
    EXPECT_TRUE(fits_32bit_indexing(sub));
    covered += sub.numel;
    ++pieces;
  });
  EXPECT_EQ(covered, it.numel);
  EXPECT_EQ(pieces, 6);  // 3 rows, each halved once to fit 2^31 - 1 elements
}
