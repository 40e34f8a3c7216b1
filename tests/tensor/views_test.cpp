#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "support/iota.h"
#include "tide/tide.h"

using namespace tide;
using test::error_of;
using test::iota;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Views, ViewSharesStorageAndInfersMinusOne) {
  Tensor a = iota({2, 6});
  Tensor v = a.view({3, -1});
  EXPECT_THAT(v.sizes(), ElementsAre(3, 4));
  EXPECT_TRUE(v.storage().is_alias_of(a.storage()));
  v.data_ptr<float>()[5] = 100;
  EXPECT_EQ(a.data_ptr<float>()[5], 100);
}

TEST(Views, ViewOfIncompatibleStridesSuggestsReshape) {
  Tensor a = iota({2, 3}).t();
  EXPECT_THAT(error_of([&] { a.view({6}); }), HasSubstr("Use .reshape(...) instead"));
  Tensor r = a.reshape({6});
  EXPECT_THAT(r.tolist<float>(), ElementsAre(0, 3, 1, 4, 2, 5));
  EXPECT_FALSE(r.storage().is_alias_of(a.storage()));
}

TEST(Views, ViewWithWrongNumelNamesShapeAndSize) {
  EXPECT_THAT(error_of([&] { iota({2, 3}).view({4, 2}); }),
              HasSubstr("shape '(4, 2)' is invalid for input of size 6"));
  EXPECT_THAT(error_of([&] { iota({2, 3}).view({-1, -1}); }), HasSubstr("only one dimension can be inferred"));
}

TEST(Views, TransposeAndPermuteSwapStrides) {
  Tensor a = iota({2, 3, 4});
  Tensor t = a.transpose(0, 2);
  EXPECT_THAT(t.sizes(), ElementsAre(4, 3, 2));
  EXPECT_THAT(t.strides(), ElementsAre(1, 4, 12));
  EXPECT_FALSE(t.is_contiguous());
  Tensor p = a.permute({1, 2, 0});
  EXPECT_THAT(p.sizes(), ElementsAre(3, 4, 2));
  EXPECT_THAT(p.strides(), ElementsAre(4, 1, 12));
  EXPECT_THAT(p.contiguous().strides(), ElementsAre(8, 2, 1));
  EXPECT_EQ(p.contiguous().index({1, 2, 1}).item<float>(), 1 * 12 + 1 * 4 + 2);
  EXPECT_THAT(error_of([&] { a.permute({0, 0, 1}); }), HasSubstr("repeated dim"));
  EXPECT_THAT(error_of([&] { a.permute({0, 1}); }), HasSubstr("number of dims don't match"));
}

TEST(Views, TOfThreeDimsIsAnError) {
  EXPECT_THAT(error_of([&] { iota({2, 2, 2}).t(); }), HasSubstr("expects a tensor with <= 2 dimensions"));
  EXPECT_THAT(iota({3}).t().sizes(), ElementsAre(3));
}

TEST(Views, NarrowSelectAndIndexing) {
  Tensor a = iota({4, 5});
  EXPECT_THAT(a.narrow(1, 1, 3).contiguous().tolist<float>(),
              ElementsAre(1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18));
  EXPECT_THAT(a.select(0, -1).tolist<float>(), ElementsAre(15, 16, 17, 18, 19));
  EXPECT_THAT(a[2].tolist<float>(), ElementsAre(10, 11, 12, 13, 14));
  EXPECT_EQ(a.index({1, 3}).item<float>(), 8);
  EXPECT_THAT(a.index({Slice(1, 3), Slice(std::nullopt, std::nullopt, 2)}).contiguous().tolist<float>(),
              ElementsAre(5, 7, 9, 10, 12, 14));
  EXPECT_THAT(a.index({Slice(-2)}).sizes(), ElementsAre(2, 5));
  EXPECT_THAT(error_of([&] { a.select(0, 4); }), HasSubstr("index 4 is out of bounds for dimension 0 with size 4"));
  EXPECT_THAT(error_of([&] { a.narrow(1, 3, 3); }), HasSubstr("exceeds dimension size (5)"));
  EXPECT_THAT(error_of([&] { a.index({0, 0, 0}); }), HasSubstr("too many indices"));
  EXPECT_THAT(error_of([&] { a.size(2); }), HasSubstr("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
}

TEST(Views, UnsqueezeSqueezeAndExpand) {
  Tensor a = iota({3});
  EXPECT_THAT(a.unsqueeze(0).sizes(), ElementsAre(1, 3));
  EXPECT_THAT(a.unsqueeze(-1).sizes(), ElementsAre(3, 1));
  EXPECT_THAT(a.unsqueeze(1).squeeze().sizes(), ElementsAre(3));
  EXPECT_THAT(iota({1, 3, 1}).squeeze(0).sizes(), ElementsAre(3, 1));
  EXPECT_THAT(iota({2, 3}).squeeze(0).sizes(), ElementsAre(2, 3));
  Tensor e = a.unsqueeze(0).expand({4, 3});
  EXPECT_THAT(e.strides(), ElementsAre(0, 1));
  EXPECT_THAT(e.contiguous().tolist<float>(), ElementsAre(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2));
  EXPECT_THAT(a.expand({2, -1}).sizes(), ElementsAre(2, 3));
  EXPECT_THAT(error_of([&] { a.expand({2, 4}); }),
              HasSubstr("The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1"));
}

TEST(Views, ChunkAndSplitCoverTheDimension) {
  Tensor a = iota({7});
  auto c = a.chunk(3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_THAT(c[2].tolist<float>(), ElementsAre(6));
  auto s = a.split(std::vector<int64_t>{2, 5});
  EXPECT_THAT(s[1].tolist<float>(), ElementsAre(2, 3, 4, 5, 6));
  EXPECT_THAT(error_of([&] { a.split(std::vector<int64_t>{2, 2}); }), HasSubstr("sum exactly to 7"));
  EXPECT_THAT(error_of([&] { a.chunk(0); }), HasSubstr("greater than 0"));
}

TEST(Views, FlattenJoinsDims) {
  EXPECT_THAT(iota({2, 3, 4}).flatten(1).sizes(), ElementsAre(2, 12));
  EXPECT_THAT(iota({2, 3, 4}).flatten().sizes(), ElementsAre(24));
}

// Found by the views fuzzer (tests/fuzz): a 0-dim tensor accepts dims 0 and -1 only, as torch.
TEST(Views, SqueezeAndFlattenOfAZeroDimTensorCheckTheirDims) {
  Tensor s = iota({1}).reshape({});
  EXPECT_EQ(s.squeeze(-1).dim(), 0);
  EXPECT_THAT(s.flatten(0, -1).sizes(), ElementsAre(1));
  EXPECT_THAT(error_of([&] { s.squeeze(-3); }), HasSubstr("Dimension out of range"));
  EXPECT_THAT(error_of([&] { s.flatten(-4, -3); }), HasSubstr("Dimension out of range"));
}

// Found by the views fuzzer: arguments near INT64_MAX overflowed int64 inside the view ops.
TEST(Views, StepsCountsAndLengthsNearInt64MaxDoNotOverflow) {
  constexpr int64_t kMax = INT64_MAX;
  Tensor a = iota({7});
  EXPECT_THAT(a.slice(0, 2, std::nullopt, kMax).tolist<float>(), ElementsAre(2));
  EXPECT_EQ(a.chunk(kMax).size(), 7u);
  EXPECT_THAT(error_of([&] { a.narrow(0, 2, kMax); }), HasSubstr("exceeds dimension size (7)"));
  EXPECT_THAT(error_of([&] { a.split(std::vector<int64_t>{kMax, kMax, 2}); }),
              HasSubstr("summing to more than int64 holds"));
}

// Note [Views of empty tensors]: sizes whose products overflow, beside a zero size.
TEST(Views, EmptyTensorsWithHugeDimsViewWithoutOverflow) {
  constexpr int64_t kMax = INT64_MAX;
  Tensor e = iota({0}).reshape({11, kMax, 0});
  EXPECT_EQ(e.select(0, 7).numel(), 0);
  EXPECT_EQ(e.unsqueeze(1).dim(), 4);
  EXPECT_THAT(e.view({-1}).sizes(), ElementsAre(0));
  EXPECT_EQ(e.split(kMax / 3, 1).size(), 4u);
  EXPECT_THAT(error_of([&] { e.flatten(0, 1); }), HasSubstr("does not fit in int64"));
  EXPECT_EQ(e.flatten(1, 2).size(1), 0);
}
