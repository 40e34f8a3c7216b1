// data::TensorDataset and Dataset::get_batch's default (per-sample get and stack) on cpu.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "support/error_of.h"
#include "support/iota.h"
#include "tide/tide.h"

namespace tide {
namespace {

using data::Example;
using data::TensorDataset;
using test::error_of;
using test::iota;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(TensorDataset, SampleIIsRowIOfBothTensorsAsViews) {
  Tensor x = iota({5, 2, 3});
  Tensor y = iota({5}, kInt64);
  TensorDataset ds(x, y);
  ASSERT_EQ(ds.size(), 5u);
  const Example e = ds.get(3);
  EXPECT_EQ(e.data.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(e.data.tolist<float>(), (std::vector<float>{18, 19, 20, 21, 22, 23}));
  EXPECT_EQ(e.target.dim(), 0);
  EXPECT_EQ(e.target.item<int64_t>(), 3);
  EXPECT_EQ(e.data.storage().data(), x.storage().data()) << "get() should return a view";
}

TEST(TensorDataset, FirstDimensionsMustMatch) {
  EXPECT_THAT(error_of([] { TensorDataset(iota({5, 2}), iota({4})); }),
              AllOf(HasSubstr("[TensorDataset] Size mismatch between tensors: data has 5 samples "
                              "(shape (5, 2)) but target has 4 (shape (4,))")));
  EXPECT_THAT(error_of([] { TensorDataset(tensor(1.0), iota({1})); }),
              HasSubstr("[TensorDataset] the data tensor needs a first dimension"));
  EXPECT_THAT(error_of([] { TensorDataset(iota({1}), tensor(1.0)); }),
              HasSubstr("[TensorDataset] the target tensor needs a first dimension"));
  EXPECT_THAT(error_of([] { TensorDataset(Tensor(), iota({1})); }),
              HasSubstr("[TensorDataset] expected a defined data tensor"));
}

TEST(TensorDataset, AnUndefinedTargetMakesAnUnlabeledDataset) {
  TensorDataset ds(iota({3, 2}), Tensor());
  EXPECT_FALSE(ds.get(1).target.defined());
  const std::vector<size_t> idx = {2, 0};
  const Example b = ds.get_batch(idx);
  EXPECT_EQ(b.data.tolist<float>(), (std::vector<float>{4, 5, 0, 1}));
  EXPECT_FALSE(b.target.defined());
}

TEST(TensorDataset, GetOutOfRangeNamesTheIndexAndTheSize) {
  TensorDataset ds(iota({5, 2}), iota({5}));
  EXPECT_THAT(error_of([&] { ds.get(5); }),
              HasSubstr("[TensorDataset::get] index 5 is out of range for a dataset of 5 samples"));
}

TEST(TensorDataset, GetBatchGathersInIndexOrderAndEqualsStackedSamples) {
  Tensor x = iota({6, 2, 2});
  Tensor y = iota({6}, kInt64);
  TensorDataset ds(x, y);
  const std::vector<size_t> idx = {5, 0, 1, 2, 4};  // a run of consecutive indices in the middle
  const Example b = ds.get_batch(idx);
  ASSERT_EQ(b.data.sizes(), (std::vector<int64_t>{5, 2, 2}));
  std::vector<Tensor> rows;
  for (size_t i : idx) rows.push_back(ds.get(i).data);
  EXPECT_EQ(b.data.tolist<float>(), stack(rows).tolist<float>());
  EXPECT_EQ(b.target.tolist<int64_t>(), (std::vector<int64_t>{5, 0, 1, 2, 4}));
  EXPECT_NE(b.data.storage().data(), x.storage().data()) << "a batch is a copy, not a view";
  EXPECT_FALSE(b.data.is_pinned());
}

TEST(TensorDataset, GetBatchOfANonContiguousTensorCopiesItsRows) {
  Tensor x = iota({3, 4}).t();  // (4, 3), rows are strided
  TensorDataset ds(x, iota({4}));
  const std::vector<size_t> idx = {3, 1};
  EXPECT_EQ(ds.get_batch(idx).data.tolist<float>(), (std::vector<float>{3, 7, 11, 1, 5, 9}));
}

TEST(TensorDataset, GetBatchRejectsIndicesOutOfRange) {
  TensorDataset ds(iota({4, 2}), iota({4}));
  const std::vector<size_t> idx = {1, 4};
  EXPECT_THAT(error_of([&] { ds.get_batch(idx); }),
              HasSubstr("[TensorDataset::get_batch] sample index 4 is out of range for a dataset "
                        "of 4 samples"));
}

/// A per-sample dataset (no get_batch of its own): sample i is (i, 2i) as float32 vectors of
/// length 3, and sample `bad` raises.
struct Squares : data::Dataset {
  explicit Squares(size_t n, size_t bad = size_t(-1)) : n(n), bad(bad) {}
  Example get(size_t i) const override {
    if (i == bad) throw std::runtime_error("pixel file for sample missing");
    const float v = static_cast<float>(i);
    return Example{full({3}, v), full({}, 2 * static_cast<int64_t>(i))};
  }
  size_t size() const override { return n; }
  size_t n, bad;
};

TEST(Dataset, DefaultGetBatchStacksEachSamplesTensors) {
  Squares ds(10);
  const std::vector<size_t> idx = {7, 2};
  const Example b = ds.get_batch(idx);
  EXPECT_EQ(b.data.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(b.data.tolist<float>(), (std::vector<float>{7, 7, 7, 2, 2, 2}));
  EXPECT_EQ(b.target.dtype(), kInt64);
  EXPECT_EQ(b.target.tolist<int64_t>(), (std::vector<int64_t>{14, 4}));
}

TEST(Dataset, DefaultGetBatchNamesTheSampleThatFailed) {
  Squares ds(10, /*bad=*/4);
  const std::vector<size_t> idx = {3, 4, 5};
  EXPECT_THAT(error_of([&] { ds.get_batch(idx); }),
              HasSubstr("[Dataset::get_batch] get(4) failed for sample 4: pixel file for sample missing"));
}

/// Sample shapes that cannot be stacked.
struct Ragged : data::Dataset {
  Example get(size_t i) const override { return Example{zeros({static_cast<int64_t>(i) + 1}), Tensor()}; }
  size_t size() const override { return 3; }
};

TEST(Dataset, DefaultGetBatchExplainsSamplesThatCannotBeStacked) {
  Ragged ds;
  const std::vector<size_t> idx = {0, 2};
  EXPECT_THAT(error_of([&] { ds.get_batch(idx); }),
              AllOf(HasSubstr("[Dataset::get_batch] the data tensors of samples 0..2"),
                    HasSubstr("stack expects each tensor to be equal size")));
}

}  // namespace
}  // namespace tide
