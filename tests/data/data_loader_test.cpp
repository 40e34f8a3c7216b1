// data::DataLoader on cpu: batching, drop_last and size, shuffle determinism across worker
// counts and epochs, worker errors, bounded prefetch, early exit, options and re-iteration.
// Nothing here sleeps or times anything: workers are observed through what the datasets
// record, and every wait is on a condition the test controls.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <stdexcept>

#include "data/epoch_order.h"
#include "support/error_of.h"
#include "support/iota.h"
#include "tide/tide.h"

namespace tide {
namespace {

using data::DataLoader;
using data::DataLoaderOptions;
using data::Example;
using data::TensorDataset;
using test::error_of;
using test::iota;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

/// n samples: data row i is (i, i + 0.5), target i.
std::shared_ptr<TensorDataset> numbered(int64_t n) {
  Tensor x = empty({n, 2});
  float* p = x.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) {
    p[2 * i] = static_cast<float>(i);
    p[2 * i + 1] = static_cast<float>(i) + 0.5f;
  }
  return std::make_shared<TensorDataset>(x, arange(n));
}

/// Each batch's targets, in the order the loader hands them out (one epoch).
std::vector<std::vector<int64_t>> epoch_targets(DataLoader& loader) {
  std::vector<std::vector<int64_t>> out;
  for (const Example& batch : loader) out.push_back(batch.target.tolist<int64_t>());
  return out;
}

std::vector<int64_t> flat(const std::vector<std::vector<int64_t>>& batches) {
  std::vector<int64_t> out;
  for (const auto& b : batches) out.insert(out.end(), b.begin(), b.end());
  return out;
}

std::vector<int64_t> iota_vector(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), int64_t{0});
  return v;
}

TEST(DataLoaderOptions, ChainsAndHasTorchsDefaults) {
  DataLoaderOptions o;
  EXPECT_EQ(o.batch_size(), 1);
  EXPECT_FALSE(o.shuffle());
  EXPECT_EQ(o.num_workers(), 0);
  EXPECT_FALSE(o.pin_memory());
  EXPECT_FALSE(o.drop_last());
  EXPECT_EQ(o.prefetch_factor(), 2);
  EXPECT_FALSE(o.seed().has_value());
  o.batch_size(64).shuffle(true).num_workers(3).pin_memory(true).drop_last(true).prefetch_factor(4).seed(9);
  EXPECT_EQ(o.batch_size(), 64);
  EXPECT_TRUE(o.shuffle());
  EXPECT_EQ(o.num_workers(), 3);
  EXPECT_TRUE(o.pin_memory());
  EXPECT_TRUE(o.drop_last());
  EXPECT_EQ(o.prefetch_factor(), 4);
  EXPECT_EQ(o.seed(), 9u);
}

TEST(DataLoader, RejectsANullDatasetAndInvalidOptions) {
  auto ds = numbered(4);
  EXPECT_THAT(error_of([] { DataLoader(nullptr); }),
              HasSubstr("[DataLoader] expected a dataset, got a null pointer"));
  EXPECT_THAT(error_of([&] { DataLoader(ds, DataLoaderOptions().batch_size(0)); }),
              HasSubstr("[DataLoader] batch_size should be a positive integer value, but got batch_size=0"));
  EXPECT_THAT(error_of([&] { DataLoader(ds, DataLoaderOptions().num_workers(-1)); }),
              HasSubstr("[DataLoader] num_workers option should be non-negative, but got num_workers=-1"));
  EXPECT_THAT(error_of([&] { DataLoader(ds, DataLoaderOptions().prefetch_factor(0)); }),
              HasSubstr("[DataLoader] prefetch_factor option should be a positive integer"));
}

TEST(DataLoader, BatchesStackSamplesAlongANewFirstDimInOrder) {
  DataLoader loader(numbered(7), DataLoaderOptions().batch_size(3));
  EXPECT_EQ(loader.size(), 3u);
  std::vector<std::vector<float>> data;
  std::vector<std::vector<int64_t>> targets;
  for (const Example& batch : loader) {
    EXPECT_EQ(batch.data.dim(), 2);
    EXPECT_EQ(batch.data.size(1), 2);
    EXPECT_EQ(batch.target.dtype(), kInt64);
    data.push_back(batch.data.tolist<float>());
    targets.push_back(batch.target.tolist<int64_t>());
  }
  EXPECT_EQ(targets, (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6}}));
  EXPECT_EQ(data[2], (std::vector<float>{6, 6.5}));
  EXPECT_EQ(data[0], (std::vector<float>{0, 0.5, 1, 1.5, 2, 2.5}));
}

TEST(DataLoader, DropLastLeavesOutTheShortBatch) {
  DataLoader keep(numbered(10), DataLoaderOptions().batch_size(3));
  DataLoader drop(numbered(10), DataLoaderOptions().batch_size(3).drop_last(true));
  EXPECT_EQ(keep.size(), 4u);
  EXPECT_EQ(drop.size(), 3u);
  EXPECT_EQ(epoch_targets(keep).back(), (std::vector<int64_t>{9}));
  EXPECT_EQ(epoch_targets(drop).size(), 3u);
  EXPECT_EQ(flat(epoch_targets(drop)), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  // Exact multiples and datasets smaller than a batch.
  EXPECT_EQ(DataLoader(numbered(9), DataLoaderOptions().batch_size(3)).size(), 3u);
  EXPECT_EQ(DataLoader(numbered(2), DataLoaderOptions().batch_size(3)).size(), 1u);
  EXPECT_EQ(DataLoader(numbered(2), DataLoaderOptions().batch_size(3).drop_last(true)).size(), 0u);
}

TEST(DataLoader, AnEmptyEpochHasNoBatches) {
  DataLoader loader(numbered(2), DataLoaderOptions().batch_size(3).drop_last(true).num_workers(2));
  EXPECT_TRUE(loader.begin() == loader.end());
  EXPECT_TRUE(epoch_targets(loader).empty());
}

TEST(DataLoader, WorkersDeliverTheSameBatchesInTheSameOrder) {
  for (int workers : {1, 2, 3, 8}) {
    for (int prefetch : {1, 2, 5}) {
      DataLoader loader(numbered(50),
                        DataLoaderOptions().batch_size(4).num_workers(workers).prefetch_factor(prefetch));
      const auto batches = epoch_targets(loader);
      ASSERT_EQ(batches.size(), 13u) << workers << " workers";
      EXPECT_EQ(flat(batches), iota_vector(50)) << workers << " workers, prefetch " << prefetch;
    }
  }
}

TEST(DataLoader, ShuffleIsAPermutationThatDependsOnlyOnTheSeedAndEpoch) {
  std::vector<std::vector<std::vector<int64_t>>> runs;  // [workers][epoch] -> flat order
  for (int workers : {0, 1, 3}) {
    DataLoader loader(numbered(100), DataLoaderOptions().batch_size(8).shuffle(true).seed(1234).num_workers(workers));
    std::vector<std::vector<int64_t>> epochs;
    for (int e = 0; e < 3; ++e) epochs.push_back(flat(epoch_targets(loader)));
    runs.push_back(epochs);
  }
  EXPECT_EQ(runs[0], runs[1]) << "1 worker gives another order than 0";
  EXPECT_EQ(runs[0], runs[2]) << "3 workers give another order than 0";
  for (const auto& order : runs[0]) {
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, iota_vector(100)) << "every sample exactly once per epoch";
    EXPECT_NE(order, iota_vector(100));
  }
  EXPECT_NE(runs[0][0], runs[0][1]) << "each epoch reshuffles";
  EXPECT_NE(runs[0][1], runs[0][2]);
  // Another seed, another order; set_epoch replays an epoch.
  DataLoader other(numbered(100), DataLoaderOptions().batch_size(8).shuffle(true).seed(1235));
  EXPECT_NE(flat(epoch_targets(other)), runs[0][0]);
  DataLoader resumed(numbered(100), DataLoaderOptions().batch_size(8).shuffle(true).seed(1234));
  resumed.set_epoch(2);
  EXPECT_EQ(resumed.epoch(), 2);
  EXPECT_EQ(flat(epoch_targets(resumed)), runs[0][2]);
  EXPECT_EQ(resumed.epoch(), 3);
}

TEST(DataLoader, TheShuffleOrderIsPinnedDown) {
  // The permutation is part of the contract (Note [Shuffle order]): a change to it changes
  // every seeded run, so it should be deliberate.
  EXPECT_EQ(data::detail::shuffled_order(10, 0, 0), data::detail::shuffled_order(10, 0, 0));
  const std::vector<size_t> order = data::detail::shuffled_order(10, 42, 0);
  std::vector<size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, data::detail::sequential_order(10));
  EXPECT_NE(order, data::detail::shuffled_order(10, 42, 1));
  EXPECT_EQ(data::detail::shuffled_order(0, 42, 0), std::vector<size_t>{});
  EXPECT_EQ(data::detail::shuffled_order(1, 42, 0), std::vector<size_t>{0});
}

TEST(DataLoader, WithoutASeedManualSeedReproducesTheShuffle) {
  auto ds = numbered(64);
  manual_seed(7);
  DataLoader a(ds, DataLoaderOptions().batch_size(8).shuffle(true));
  const auto a0 = flat(epoch_targets(a)), a1 = flat(epoch_targets(a));
  manual_seed(7);
  DataLoader b(ds, DataLoaderOptions().batch_size(8).shuffle(true).num_workers(2));
  EXPECT_EQ(flat(epoch_targets(b)), a0);
  EXPECT_EQ(flat(epoch_targets(b)), a1);
  EXPECT_NE(a0, a1);
}

/// A per-sample dataset whose sample `bad` raises.
struct Failing : data::Dataset {
  explicit Failing(size_t n, size_t bad) : n(n), bad(bad) {}
  Example get(size_t i) const override {
    if (i == bad) throw std::runtime_error("corrupt record in shard 3");
    return Example{full({2}, static_cast<double>(i)), scalar_tensor(static_cast<int64_t>(i))};
  }
  size_t size() const override { return n; }
  size_t n, bad;
};

TEST(DataLoader, AWorkerErrorReachesTheConsumerAtItsBatchNamingTheSample) {
  for (int workers : {0, 1, 3}) {
    DataLoader loader(std::make_shared<Failing>(20, 13), DataLoaderOptions().batch_size(4).num_workers(workers));
    std::vector<int64_t> seen;
    std::string error;
    for (auto it = loader.begin(); it != loader.end(); ++it) {
      try {
        const auto t = it->target.tolist<int64_t>();
        seen.insert(seen.end(), t.begin(), t.end());
      } catch (const Error& e) {
        EXPECT_EQ(it.batch_index(), 3u);
        error = e.what();
        EXPECT_THAT(error_of([&] { *it; }), error) << "the same batch fails the same way again";
      }
    }
    EXPECT_THAT(error, AllOf(HasSubstr("[DataLoader] batch 3 of epoch 0"),
                             HasSubstr("sample 13"), HasSubstr("corrupt record in shard 3"),
                             HasSubstr(workers == 0 ? "on the loading thread" : "in worker thread")))
        << workers << " workers";
    std::vector<int64_t> expected = iota_vector(20);
    expected.erase(expected.begin() + 12, expected.begin() + 16);
    EXPECT_EQ(seen, expected) << "the other batches arrive, in order";
  }
}

/// Records, in get_batch, the highest batch any worker started relative to what the test has
/// consumed so far, and how many batches are alive (built and not yet destroyed).
struct Watched : data::Dataset {
  explicit Watched(size_t n, int64_t batch_size) : inner(numbered(static_cast<int64_t>(n))), batch_size(batch_size) {}
  Example get(size_t i) const override { return inner->get(i); }
  size_t size() const override { return inner->size(); }
  Example get_batch(std::span<const size_t> indices, bool pinned) const override {
    const auto batch = static_cast<int64_t>(indices.front()) / batch_size;
    int64_t ahead = batch - consumed.load();
    int64_t prev = max_ahead.load();
    while (ahead > prev && !max_ahead.compare_exchange_weak(prev, ahead)) {}
    ++built;
    Example e = inner->get_batch(indices, pinned);
    // A batch counts as alive while its data tensor exists: from_blob's deleter tells.
    ++alive;
    auto* keep = new Tensor(e.data);
    e.data = from_blob(e.data.raw_data(), e.data.sizes(), TensorOptions().dtype(e.data.dtype()),
                       [this, keep](void*) { delete keep; --alive; });
    return e;
  }
  std::shared_ptr<TensorDataset> inner;
  int64_t batch_size;
  mutable std::atomic<int64_t> consumed{0}, max_ahead{-1000}, built{0}, alive{0};
};

TEST(DataLoader, NeverHasMoreThanWorkersTimesPrefetchFactorBatchesInFlight) {
  auto ds = std::make_shared<Watched>(400, 2);
  DataLoader loader(ds, DataLoaderOptions().batch_size(2).num_workers(3).prefetch_factor(2));
  for (const Example& batch : loader) {
    (void)batch;
    ++ds->consumed;
  }
  // A worker may start batch k only while k < handed out + 6; the test's count of batches
  // consumed lags the loader's by at most one.
  EXPECT_LE(ds->max_ahead.load(), 6);
  EXPECT_EQ(ds->built.load(), 200);
}

TEST(DataLoader, BreakingOutEarlyStopsTheWorkersAndFreesEveryBatch) {
  auto ds = std::make_shared<Watched>(1000, 5);
  {
    DataLoader loader(ds, DataLoaderOptions().batch_size(5).num_workers(3).prefetch_factor(2));
    int n = 0;
    for (const Example& batch : loader) {
      EXPECT_EQ(batch.data.size(0), 5);
      if (++n == 3) break;
    }
    // The epoch's iterator is gone: its workers were joined, nothing holds the dataset.
    EXPECT_EQ(ds.use_count(), 2) << "the test's and the loader's references only";
    EXPECT_EQ(ds->alive.load(), 0) << "a prefetched batch outlived its epoch";
    EXPECT_LE(ds->built.load(), 3 + 6);
  }
  EXPECT_EQ(ds.use_count(), 1);
}

TEST(DataLoader, AnIteratorOutlivesItsLoaderAndKeepsItsEpoch) {
  auto ds = std::make_shared<Watched>(30, 3);
  DataLoader::Iterator it;
  {
    DataLoader loader(ds, DataLoaderOptions().batch_size(3).num_workers(2));
    it = loader.begin();
  }
  std::vector<int64_t> seen;
  for (; it != DataLoader::Iterator(); ++it) {
    const auto t = it->target.tolist<int64_t>();
    seen.insert(seen.end(), t.begin(), t.end());
  }
  EXPECT_EQ(seen, iota_vector(30));
  it = DataLoader::Iterator();
  EXPECT_EQ(ds.use_count(), 1);
  EXPECT_EQ(ds->alive.load(), 0);
}

TEST(DataLoader, EachBeginStartsAnIndependentEpoch) {
  DataLoader loader(numbered(12), DataLoaderOptions().batch_size(3).shuffle(true).seed(5).num_workers(2));
  auto first = loader.begin();   // epoch 0
  auto second = loader.begin();  // epoch 1, while epoch 0 is still live
  std::vector<int64_t> a, b;
  for (; first != loader.end(); ++first) {
    const auto t = first->target.tolist<int64_t>();
    a.insert(a.end(), t.begin(), t.end());
  }
  for (; second != loader.end(); ++second) {
    const auto t = second->target.tolist<int64_t>();
    b.insert(b.end(), t.begin(), t.end());
  }
  auto as_int64 = [](const std::vector<size_t>& v) { return std::vector<int64_t>(v.begin(), v.end()); };
  EXPECT_EQ(a, as_int64(data::detail::shuffled_order(12, 5, 0)));
  EXPECT_EQ(b, as_int64(data::detail::shuffled_order(12, 5, 1)));
  EXPECT_EQ(loader.epoch(), 2);
}

TEST(DataLoader, IteratorsAreSinglePass) {
  DataLoader loader(numbered(6), DataLoaderOptions().batch_size(2));
  auto it = loader.begin();
  auto copy = it;
  EXPECT_TRUE(it == copy);
  EXPECT_EQ(it->target.tolist<int64_t>(), (std::vector<int64_t>{0, 1}));
  ++it;
  EXPECT_EQ(it->target.tolist<int64_t>(), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(error_of([&] { *copy; }),
              HasSubstr("[DataLoader::Iterator] batch 0 was requested after batch 1; DataLoader "
                        "iterators are single-pass"));
  ++it;
  ++it;
  EXPECT_TRUE(it == loader.end());
  EXPECT_THAT(error_of([&] { *it; }), HasSubstr("dereferenced an iterator at the end of its epoch"));
}

TEST(DataLoader, PinMemoryWithoutACudaDeviceLeavesBatchesPageable) {
  // As torch: pin_memory on a machine without an accelerator warns and does not pin, so
  // device-agnostic code runs. (Pinned batches are tested with devices in tests/device.)
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  DataLoader loader(numbered(8), DataLoaderOptions().batch_size(4).pin_memory(true).num_workers(1));
  EXPECT_FALSE(loader.pins_memory());
  for (const Example& batch : loader) EXPECT_FALSE(batch.data.is_pinned());
}

}  // namespace
}  // namespace tide
