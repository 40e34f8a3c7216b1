// DataLoaderOptions::sampler: a Sampler gives each epoch's order (repeats and any subset
// allowed), is asked again at every begin(), sets the batch count, works with workers, and is
// rejected together with shuffle or when it breaks its contract.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using data::DataLoader;
using data::DataLoaderOptions;
using data::Example;
using data::Sampler;
using data::TensorDataset;
using test::error_of;
using ::testing::HasSubstr;

/// Hands out the epochs it was given, one per indices() call (the last one again after that),
/// and counts the calls.
class ScriptedSampler : public Sampler {
 public:
  explicit ScriptedSampler(std::vector<std::vector<size_t>> epochs, size_t size)
      : epochs_(std::move(epochs)), size_(size) {}
  std::vector<size_t> indices() override {
    const size_t e = calls < epochs_.size() ? calls : epochs_.size() - 1;
    ++calls;
    return epochs_[e];
  }
  size_t size() const override { return size_; }
  size_t calls = 0;

 private:
  std::vector<std::vector<size_t>> epochs_;
  size_t size_;
};

/// n samples whose target is their index.
std::shared_ptr<TensorDataset> numbered(int64_t n) {
  return std::make_shared<TensorDataset>(arange(n).to(kFloat32).unsqueeze(1), arange(n));
}

std::vector<std::vector<int64_t>> epoch_targets(DataLoader& loader) {
  std::vector<std::vector<int64_t>> out;
  for (const Example& batch : loader) out.push_back(batch.target.tolist<int64_t>());
  return out;
}

TEST(DataLoaderSampler, TheSamplersIndicesAreTheEpochsOrderRepeatsIncluded) {
  auto sampler = std::make_shared<ScriptedSampler>(
      std::vector<std::vector<size_t>>{{7, 2, 2, 0, 9}}, 5);
  DataLoader loader(numbered(10), DataLoaderOptions().batch_size(2).sampler(sampler));
  EXPECT_EQ(loader.size(), 3u);  // from the sampler's 5 indices, not the dataset's 10
  EXPECT_EQ(epoch_targets(loader), (std::vector<std::vector<int64_t>>{{7, 2}, {2, 0}, {9}}));
  DataLoader dropping(numbered(10),
                      DataLoaderOptions().batch_size(2).drop_last(true).sampler(sampler));
  EXPECT_EQ(dropping.size(), 2u);
  EXPECT_EQ(epoch_targets(dropping), (std::vector<std::vector<int64_t>>{{7, 2}, {2, 0}}));
}

TEST(DataLoaderSampler, EveryBeginAsksTheSamplerForANewEpoch) {
  auto sampler = std::make_shared<ScriptedSampler>(
      std::vector<std::vector<size_t>>{{0, 1, 2}, {2, 1, 0}}, 3);
  DataLoader loader(numbered(3), DataLoaderOptions().batch_size(3).sampler(sampler));
  EXPECT_EQ(sampler->calls, 0u);  // nothing is asked before an epoch starts
  EXPECT_EQ(epoch_targets(loader), (std::vector<std::vector<int64_t>>{{0, 1, 2}}));
  EXPECT_EQ(epoch_targets(loader), (std::vector<std::vector<int64_t>>{{2, 1, 0}}));
  EXPECT_EQ(sampler->calls, 2u);
}

TEST(DataLoaderSampler, WorkersFollowTheSamplersOrder) {
  std::vector<size_t> order;
  for (size_t i = 0; i < 40; ++i) order.push_back((i * 7) % 40);
  auto sampler = std::make_shared<ScriptedSampler>(std::vector<std::vector<size_t>>{order}, 40);
  DataLoader loader(numbered(40),
                    DataLoaderOptions().batch_size(3).num_workers(3).sampler(sampler));
  std::vector<int64_t> seen;
  for (const auto& b : epoch_targets(loader)) seen.insert(seen.end(), b.begin(), b.end());
  EXPECT_EQ(seen, std::vector<int64_t>(order.begin(), order.end()));
}

TEST(DataLoaderSampler, ASamplerWithShuffleIsRejectedAsInTorch) {
  auto sampler = std::make_shared<ScriptedSampler>(std::vector<std::vector<size_t>>{{0}}, 1);
  EXPECT_THAT(error_of([&] {
                DataLoader(numbered(4), DataLoaderOptions().shuffle(true).sampler(sampler));
              }),
              HasSubstr("[DataLoader] sampler option is mutually exclusive with shuffle"));
}

TEST(DataLoaderSampler, ASamplerThatBreaksItsContractIsNamedBeforeAnyBatchIsRead) {
  auto short_one = std::make_shared<ScriptedSampler>(std::vector<std::vector<size_t>>{{0, 1}}, 3);
  DataLoader a(numbered(4), DataLoaderOptions().sampler(short_one));
  EXPECT_THAT(error_of([&] { a.begin(); }),
              HasSubstr("[DataLoader] expected the sampler to yield 3 indices (its size()), "
                        "found 2"));
  auto out_of_range =
      std::make_shared<ScriptedSampler>(std::vector<std::vector<size_t>>{{0, 4, 1}}, 3);
  DataLoader b(numbered(4), DataLoaderOptions().num_workers(2).sampler(out_of_range));
  EXPECT_THAT(error_of([&] { b.begin(); }),
              HasSubstr("[DataLoader] expected the sampler's indices to be below the dataset's "
                        "size 4, found index 4 at position 1"));
}

TEST(DataLoaderSampler, OptionsHoldNoSamplerByDefaultAndShareTheOneGiven) {
  EXPECT_EQ(DataLoaderOptions().sampler(), nullptr);
  auto sampler = std::make_shared<ScriptedSampler>(std::vector<std::vector<size_t>>{{0}}, 1);
  EXPECT_EQ(DataLoaderOptions().batch_size(4).sampler(sampler).sampler(), sampler);
}

}  // namespace
}  // namespace tide
