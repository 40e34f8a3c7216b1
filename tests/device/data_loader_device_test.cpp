// tide::data with cuda devices: DataLoader batches in pinned memory (gathered and per-sample
// datasets, with and without workers) and their non_blocking copies, and DevicePrefetcher:
// batches on the device with the loader's values, the caller's stream ordered after the side
// stream's copy, the next copy running while the caller's stream is busy, batch memory kept
// until the caller's work on it completed, errors at their batch. Ordering is proven with held
// stream workers (tide/testing/sim_hooks.h), never with timing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "device_helpers.h"
#include "support/error_of.h"
#include "support/sim_streams.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

using namespace tide;
using data::DataLoader;
using data::DataLoaderOptions;
using data::DevicePrefetcher;
using data::Example;
using test::cuda_device;
using test::MustNotWaitFor;
using tide::testing::StreamHold;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

int last_device() { return cuda::device_count() - 1; }

/// n samples: data row i is (i, -i, i / 2), target i.
std::shared_ptr<data::TensorDataset> numbered(int64_t n) {
  Tensor x = empty({n, 3});
  float* p = x.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) {
    p[3 * i] = static_cast<float>(i);
    p[3 * i + 1] = -static_cast<float>(i);
    p[3 * i + 2] = static_cast<float>(i) / 2;
  }
  return std::make_shared<data::TensorDataset>(x, arange(n));
}

/// A per-sample dataset (the default get_batch: get and stack); sample `bad` raises.
struct PerSample : data::Dataset {
  explicit PerSample(size_t n, size_t bad = size_t(-1)) : n(n), bad(bad) {}
  Example get(size_t i) const override {
    if (i == bad) throw std::runtime_error("unreadable sample");
    return Example{full({2}, static_cast<double>(i)), scalar_tensor(static_cast<int64_t>(i))};
  }
  size_t size() const override { return n; }
  size_t n, bad;
};

/// The loader's batches read on the cpu, one epoch: the reference for the device's.
std::vector<Example> cpu_batches(DataLoader& loader) {
  std::vector<Example> out;
  for (const Example& b : loader) out.push_back(Example{b.data.clone(), b.target.clone()});
  return out;
}

}  // namespace

TEST(DataLoaderDevice, PinMemoryPutsEveryBatchInPinnedMemory) {
  TIDE_REQUIRE_DEVICES(1);
  for (int workers : {0, 2}) {
    DataLoader loader(numbered(10), DataLoaderOptions().batch_size(4).pin_memory(true).num_workers(workers));
    EXPECT_TRUE(loader.pins_memory());
    std::vector<int64_t> targets;
    for (const Example& batch : loader) {
      EXPECT_TRUE(batch.data.is_pinned()) << workers << " workers";
      EXPECT_TRUE(batch.target.is_pinned()) << workers << " workers";
      EXPECT_TRUE(batch.data.is_cpu());
      const auto t = batch.target.tolist<int64_t>();
      targets.insert(targets.end(), t.begin(), t.end());
    }
    EXPECT_EQ(targets, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  }
  // Datasets without a gather of their own are stacked, then pinned.
  DataLoader per_sample(std::make_shared<PerSample>(5), DataLoaderOptions().batch_size(2).pin_memory(true).num_workers(1));
  for (const Example& batch : per_sample) {
    EXPECT_TRUE(batch.data.is_pinned());
    EXPECT_TRUE(batch.target.is_pinned());
  }
}

TEST(DataLoaderDevice, PinnedBatchesCopyToTheDeviceWithoutBlockingTheHost) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  DataLoader loader(numbered(8), DataLoaderOptions().batch_size(4).pin_memory(true));
  cuda::Stream s(dev);
  std::vector<Tensor> on_device;
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    MustNotWaitFor region(s);
    for (const Example& batch : loader) on_device.push_back(batch.data.to(cuda_device(dev), /*non_blocking=*/true));
    ASSERT_TRUE(region.done()) << "a non_blocking copy of a pinned batch waited for the device";
    EXPECT_FALSE(s.query());
  }
  s.synchronize();  // the copies ran on s, not on the stream that reads them back below
  ASSERT_EQ(on_device.size(), 2u);
  // The loader dropped its pinned batches while the copies were pending: the pinned cache
  // keeps them until the copies ran (Note [Pinned host memory]), so the values are right.
  EXPECT_TRUE(test::same_bits(numbered(8)->data().narrow(0, 4, 4), on_device[1]));
  EXPECT_TRUE(test::same_bits(numbered(8)->data().narrow(0, 0, 4), on_device[0]));
}

TEST(DataLoaderDevice, ABatchTheHostCannotPinRaisesOutOfMemoryErrorAndTheOthersStillCome) {
  TIDE_REQUIRE_DEVICES(1);
  for (int workers : {0, 2}) {
    SCOPED_TRACE(std::to_string(workers) + " workers");
    DataLoader loader(numbered(12), DataLoaderOptions().batch_size(4).pin_memory(true).num_workers(workers));
    // The first pinned allocation of the epoch fails: with workers, batch 0's or batch 1's.
    cuda::inject_pinned_oom_at(1);
    int failed = 0;
    std::vector<int64_t> seen;
    for (auto it = loader.begin(); it != loader.end(); ++it) {
      try {
        const auto t = it->target.tolist<int64_t>();
        seen.insert(seen.end(), t.begin(), t.end());
      } catch (const OutOfMemoryError& e) {
        // An OutOfMemoryError still, so a training loop's handler for it sees it.
        ++failed;
        EXPECT_THAT(e.what(), AllOf(HasSubstr("[DataLoader] batch "), HasSubstr("of epoch 0"),
                                    HasSubstr("[pinned allocator] could not allocate"),
                                    HasSubstr("injected")));
      }
    }
    cuda::inject_pinned_oom_at(0);
    EXPECT_EQ(failed, 1);
    EXPECT_EQ(seen.size(), 8u) << "the two other batches arrive";
  }
}

TEST(DevicePrefetcher, BatchesArriveOnTheDeviceWithTheLoadersValues) {
  TIDE_REQUIRE_DEVICES(1);
  const Device dev = cuda_device(last_device());
  for (bool pin : {false, true}) {
    for (int workers : {0, 2}) {
      DataLoader loader(numbered(11), DataLoaderOptions().batch_size(3).shuffle(true).seed(3)
                                          .pin_memory(pin).num_workers(workers));
      loader.set_epoch(1);
      const std::vector<Example> expected = cpu_batches(loader);
      loader.set_epoch(1);
      DevicePrefetcher prefetcher(loader, dev);
      EXPECT_EQ(prefetcher.device(), dev);
      ASSERT_TRUE(prefetcher.stream().has_value());
      EXPECT_EQ(prefetcher.stream()->device(), dev);
      EXPECT_EQ(prefetcher.size(), 4u);
      size_t i = 0;
      for (const Example& batch : prefetcher) {
        ASSERT_LT(i, expected.size());
        EXPECT_EQ(batch.data.device(), dev);
        EXPECT_EQ(batch.target.device(), dev);
        EXPECT_TRUE(test::same_bits(expected[i].data, batch.data)) << "batch " << i;
        EXPECT_TRUE(test::same_bits(expected[i].target, batch.target)) << "batch " << i;
        ++i;
      }
      EXPECT_EQ(i, 4u) << "pin " << pin << ", " << workers << " workers";
    }
  }
}

TEST(DevicePrefetcher, CudaWithoutAnIndexMeansTheCurrentDevice) {
  TIDE_REQUIRE_DEVICES(1);
  DataLoader loader(numbered(4), DataLoaderOptions().batch_size(2));
  cuda::DeviceGuard guard(last_device());
  DevicePrefetcher prefetcher(loader, Device("cuda"));
  EXPECT_EQ(prefetcher.device(), cuda_device(last_device()));
  for (const Example& batch : prefetcher) EXPECT_EQ(batch.data.device(), cuda_device(last_device()));
  const int n = cuda::device_count();
  EXPECT_THAT(test::error_of([&] { DevicePrefetcher(loader, cuda_device(n)); }),
              HasSubstr("[DevicePrefetcher] cannot prefetch to cuda:" + std::to_string(n) +
                        ": this process has " + std::to_string(n) + " cuda device"));
}

// Note [Device prefetching]: the caller's stream waits for the side stream's copy. With the
// side stream held, the copy cannot run, and neither can the caller's work on the batch; the
// host goes on (nothing waits for the held stream). Released, the work sees the copied data.
TEST(DevicePrefetcher, TheCallersStreamWaitsForTheBatchsCopyOnTheSideStream) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  for (bool pin : {false, true}) {
    DataLoader loader(numbered(6), DataLoaderOptions().batch_size(3).pin_memory(pin));
    DevicePrefetcher prefetcher(loader, cuda_device(dev));
    const cuda::Stream side = *prefetcher.stream();
    const cuda::Stream caller = cuda::current_stream(dev);
    ASSERT_NE(side, caller);
    cuda::synchronize(dev);
    Tensor doubled;
    {
      StreamHold hold(side);
      MustNotWaitFor region(side);
      auto it = prefetcher.begin();
      const Example& batch = *it;
      doubled = batch.data * 2;  // enqueued on the caller's stream, behind the wait
      ASSERT_TRUE(region.done()) << "handing out a batch waited for the side stream";
      EXPECT_FALSE(side.query()) << "the copies are pending on the held side stream";
      EXPECT_FALSE(caller.query()) << "the caller's stream ran before the batch's copy";
    }
    EXPECT_TRUE(test::same_bits(numbered(6)->data().narrow(0, 0, 3) * 2, doubled)) << "pin " << pin;
  }
}

// The copy of batch i+1 does not wait for the caller's work on batch i: with the caller's
// stream held, the side stream still completes it. And batch i's device memory is not handed
// to a later copy while the caller's (held) work on it is pending, without record_stream.
TEST(DevicePrefetcher, CopiesTheNextBatchWhileTheCallersStreamIsBusy) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  DataLoader loader(numbered(12), DataLoaderOptions().batch_size(3).pin_memory(true));
  DevicePrefetcher prefetcher(loader, cuda_device(dev));
  const cuda::Stream side = *prefetcher.stream();
  const cuda::Stream caller = cuda::current_stream(dev);
  cuda::synchronize(dev);
  std::vector<Tensor> sums;
  {
    StreamHold hold(caller);
    MustNotWaitFor region(caller);
    for (const Example& batch : prefetcher) {
      sums.push_back(batch.data.sum(0));  // pending on the held caller's stream
      side.synchronize();  // the next batch's copy completes without the caller's stream
    }
    ASSERT_TRUE(region.done()) << "the prefetcher waited for the caller's stream";
    EXPECT_FALSE(caller.query());
  }
  ASSERT_EQ(sums.size(), 4u);
  const Tensor x = numbered(12)->data();
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(test::same_bits(x.narrow(0, 3 * i, 3).sum(0), sums[static_cast<size_t>(i)]))
        << "batch " << i << " was overwritten before the caller's stream read it";
  }
}

TEST(DevicePrefetcher, ALoaderErrorArrivesAtItsBatchAndTheOthersStillCome) {
  TIDE_REQUIRE_DEVICES(1);
  DataLoader loader(std::make_shared<PerSample>(10, 5), DataLoaderOptions().batch_size(2).num_workers(2));
  DevicePrefetcher prefetcher(loader, cuda_device(last_device()));
  std::vector<int64_t> seen;
  std::string error;
  for (auto it = prefetcher.begin(); it != prefetcher.end(); ++it) {
    try {
      const auto t = it->target.tolist<int64_t>();
      seen.insert(seen.end(), t.begin(), t.end());
    } catch (const Error& e) {
      EXPECT_EQ(it.batch_index(), 2u);
      error = e.what();
    }
  }
  EXPECT_THAT(error, AllOf(HasSubstr("[DataLoader] batch 2 of epoch 0"), HasSubstr("sample 5"),
                           HasSubstr("unreadable sample")));
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3, 6, 7, 8, 9}));
}

TEST(DevicePrefetcher, BreakingOutEarlyLeavesNothingPending) {
  TIDE_REQUIRE_DEVICES(1);
  const int dev = last_device();
  DataLoader loader(numbered(100), DataLoaderOptions().batch_size(5).pin_memory(true).num_workers(2));
  {
    DevicePrefetcher prefetcher(loader, cuda_device(dev));
    for (const Example& batch : prefetcher) {
      EXPECT_EQ(batch.data.device(), cuda_device(dev));
      break;
    }
  }
  cuda::synchronize(dev);
  // Every pinned batch went back to the cache once its copy completed.
  EXPECT_EQ(cuda::host_memory_stats()["allocated_bytes.current"], 0);
}
