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

// ---- cat

TEST(Cat, AlongTheFirstDim) {
  Tensor c = cat({tensor({{1.f, 2.f}}), tensor({{3.f, 4.f}, {5.f, 6.f}})});
  EXPECT_THAT(c.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(c.tolist<float>(), ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(Cat, AlongTheLastDimWithNegativeDim) {
  Tensor c = cat({tensor({{1, 2}, {3, 4}}), tensor({{5}, {6}})}, -1);
  EXPECT_THAT(c.sizes(), ElementsAre(2, 3));
  EXPECT_EQ(c.dtype(), kInt64);
  EXPECT_THAT(c.tolist<int64_t>(), ElementsAre(1, 2, 5, 3, 4, 6));
}

TEST(Cat, OfNonContiguousInputs) {
  Tensor a = iota({2, 3}).t();  // (3, 2): [[0 3][1 4][2 5]]
  Tensor c = cat({a, iota({3, 1})}, 1);
  EXPECT_THAT(c.sizes(), ElementsAre(3, 3));
  EXPECT_THAT(c.tolist<float>(), ElementsAre(0, 3, 0, 1, 4, 1, 2, 5, 2));
}

TEST(Cat, PromotesDtypesAcrossInputs) {
  Tensor c = cat({tensor({1, 2}, dtype(kInt32)), tensor({0.5f}), tensor({true})});
  EXPECT_EQ(c.dtype(), kFloat32);
  EXPECT_THAT(c.tolist<float>(), ElementsAre(1.f, 2.f, 0.5f, 1.f));
  EXPECT_EQ(cat({tensor({1}, dtype(kUInt8)), tensor({2}, dtype(kInt32))}).dtype(), kInt32);
  EXPECT_EQ(cat({tensor({1.f}), tensor({2.}, dtype(kFloat64))}).dtype(), kFloat64);
}

TEST(Cat, SkipsLegacyEmptyOneDimTensors) {
  Tensor c = cat({empty({0}), iota({2, 2}), empty({0})}, 1);
  EXPECT_THAT(c.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(cat({empty({0}), empty({0})}).sizes(), ElementsAre(0));
  EXPECT_THAT(cat({empty({2, 0}), iota({2, 1})}, 1).tolist<float>(), ElementsAre(0, 1));
}

TEST(Cat, OfASingleTensorCopiesIt) {
  Tensor a = iota({2});
  Tensor c = cat({a});
  EXPECT_FALSE(c.storage().is_alias_of(a.storage()));
  EXPECT_THAT(c.tolist<float>(), ElementsAre(0, 1));
}

TEST(Cat, RejectsBadInputsLikeTorch) {
  EXPECT_THAT(error_of([] { cat({}); }), HasSubstr("[cat] expected a non-empty list of Tensors"));
  EXPECT_THAT(error_of([] { cat({tensor(1.f), tensor(2.f)}); }),
              HasSubstr("[cat] zero-dimensional tensor (at position 0) cannot be concatenated"));
  EXPECT_THAT(error_of([] { cat({iota({2, 2}), iota({2})}); }),
              HasSubstr("[cat] Tensors must have same number of dimensions: got 2 and 1"));
  EXPECT_THAT(error_of([] { cat({iota({2, 2}), iota({2, 3})}); }),
              HasSubstr("[cat] Sizes of tensors must match except in dimension 0. Expected size 2 "
                        "but got size 3 for tensor number 1 in the list."));
  EXPECT_THAT(error_of([] { cat({iota({2, 2}), iota({2, 2})}, 2); }),
              HasSubstr("[cat] Dimension out of range"));
  EXPECT_THAT(error_of([] { cat({iota({2}), Tensor()}); }),
              HasSubstr("[cat] expected a defined tensor"));
}

// ---- stack

TEST(Stack, InsertsANewDim) {
  Tensor a = tensor({1.f, 2.f}), b = tensor({3.f, 4.f});
  Tensor s0 = stack({a, b});
  EXPECT_THAT(s0.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(s0.tolist<float>(), ElementsAre(1, 2, 3, 4));
  Tensor s1 = stack({a, b}, 1);
  EXPECT_THAT(s1.tolist<float>(), ElementsAre(1, 3, 2, 4));
  Tensor sn = stack({a, b}, -1);
  EXPECT_THAT(sn.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(sn.tolist<float>(), ElementsAre(1, 3, 2, 4));
  Tensor scalars = stack({tensor(1.f), tensor(2.f), tensor(3.f)});
  EXPECT_THAT(scalars.sizes(), ElementsAre(3));
}

TEST(Stack, RejectsBadInputsLikeTorch) {
  EXPECT_THAT(error_of([] { stack({}); }), HasSubstr("[stack] stack expects a non-empty TensorList"));
  EXPECT_THAT(error_of([] { stack({iota({2, 3}), iota({3})}); }),
              HasSubstr("[stack] stack expects each tensor to be equal size, but got (2, 3) at "
                        "entry 0 and (3,) at entry 1"));
  EXPECT_THAT(error_of([] { stack({iota({2}), iota({2})}, 3); }),
              HasSubstr("[stack] Dimension out of range (expected to be in range of [-2, 1], but got 3)"));
}

// ---- chunk / split

TEST(Chunk, FreeFunctionMatchesTheMethod) {
  std::vector<Tensor> parts = chunk(iota({5, 2}), 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_THAT(parts[0].sizes(), ElementsAre(2, 2));
  EXPECT_THAT(parts[2].sizes(), ElementsAre(1, 2));
  EXPECT_THAT(parts[2].tolist<float>(), ElementsAre(8, 9));
  EXPECT_THAT(error_of([] { chunk(iota({2}), 0); }),
              HasSubstr("chunk expects `chunks` to be greater than 0"));
}

TEST(Split, BySizeAndBySizes) {
  std::vector<Tensor> a = split(iota({2, 5}), 2, 1);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_THAT(a[2].sizes(), ElementsAre(2, 1));
  EXPECT_THAT(a[2].tolist<float>(), ElementsAre(4, 9));
  std::vector<Tensor> b = split(iota({5}), std::vector<int64_t>{1, 4});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_THAT(b[1].tolist<float>(), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(error_of([] { split(iota({5}), std::vector<int64_t>{1, 2}); }),
              HasSubstr("split_with_sizes expects split_sizes to sum exactly to 5"));
}

// ---- index_select

TEST(IndexSelect, AlongEachDim) {
  Tensor a = iota({3, 4});
  Tensor rows = index_select(a, 0, tensor({2, 0, 2}));
  EXPECT_THAT(rows.sizes(), ElementsAre(3, 4));
  EXPECT_THAT(rows.tolist<float>(), ElementsAre(8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11));
  Tensor cols = a.index_select(-1, tensor({3, 1}, dtype(kInt32)));
  EXPECT_THAT(cols.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(cols.tolist<float>(), ElementsAre(3, 1, 7, 5, 11, 9));
}

TEST(IndexSelect, OfNonContiguousInputAndIndex) {
  Tensor a = iota({3, 4}).t();                 // (4, 3), a[i][j] = 4j + i
  Tensor idx = tensor({0, 9, 2, 9}).slice(0, 0, 4, 2);  // [0, 2], strided
  Tensor r = index_select(a, 1, idx);
  EXPECT_THAT(r.sizes(), ElementsAre(4, 2));
  EXPECT_THAT(r.tolist<float>(), ElementsAre(0, 8, 1, 9, 2, 10, 3, 11));
}

TEST(IndexSelect, WithEmptyAndScalarIndices) {
  Tensor e = index_select(iota({3, 2}), 0, empty({0}, dtype(kInt64)));
  EXPECT_THAT(e.sizes(), ElementsAre(0, 2));
  Tensor s = index_select(iota({3, 2}), 0, tensor(int64_t{1}));
  EXPECT_THAT(s.sizes(), ElementsAre(1, 2));
  EXPECT_THAT(s.tolist<float>(), ElementsAre(2, 3));
  Tensor z = index_select(tensor(7.f), 0, tensor({0}));
  EXPECT_EQ(z.dim(), 0);
  EXPECT_EQ(z.item<float>(), 7.f);
  Tensor b = index_select(tensor({true, false}), 0, tensor({1, 1, 0}));
  EXPECT_THAT(b.tolist<bool>(), ElementsAre(false, false, true));
}

TEST(IndexSelect, RejectsOutOfRangeIndicesNamingValueAndBound) {
  std::string e = error_of([] { index_select(iota({3, 4}), 0, tensor({0, 3})); });
  EXPECT_THAT(e, HasSubstr("[index_select] index out of range in self"));
  EXPECT_THAT(e, HasSubstr("index 3"));
  EXPECT_THAT(e, HasSubstr("with size 3"));
  EXPECT_THAT(error_of([] { index_select(iota({3, 4}), 1, tensor({-1})); }),
              HasSubstr("index -1 (at position 0 of index) is out of bounds for dimension 1 with size 4"));
}

TEST(IndexSelect, RejectsBadIndexTensors) {
  EXPECT_THAT(error_of([] { index_select(iota({3}), 0, tensor({{0}})); }),
              HasSubstr("[index_select] index_select(): Index is supposed to be a vector"));
  EXPECT_THAT(error_of([] { index_select(iota({3}), 0, tensor({0.f})); }),
              HasSubstr("[index_select] index_select(): Expected dtype int32 or int64 for index"));
  EXPECT_THAT(error_of([] { index_select(tensor(1.f), 0, tensor({0, 0})); }),
              HasSubstr("Index to scalar can have only 1 value, got 2 value(s)"));
  EXPECT_THAT(error_of([] { index_select(iota({3}), 1, tensor({0})); }),
              HasSubstr("[index_select] Dimension out of range"));
}
