// data::DevicePrefetcher on the cpu: batches pass through unchanged; devices that cannot be
// prefetched to are rejected. (On cuda devices: tests/device/data_loader_device_test.cpp.)

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using data::DataLoader;
using data::DataLoaderOptions;
using data::DevicePrefetcher;
using data::Example;
using test::error_of;
using ::testing::HasSubstr;

std::shared_ptr<data::TensorDataset> numbered(int64_t n) {
  return std::make_shared<data::TensorDataset>(arange(n).to(kFloat32).unsqueeze(1), arange(n));
}

TEST(DevicePrefetcher, OnTheCpuBatchesPassThroughInOrder) {
  DataLoader loader(numbered(7), DataLoaderOptions().batch_size(2).num_workers(2));
  DevicePrefetcher prefetcher(loader, Device("cpu"));
  EXPECT_EQ(prefetcher.device(), Device(kCPU));
  EXPECT_FALSE(prefetcher.stream().has_value());
  EXPECT_EQ(prefetcher.size(), 4u);
  for (int epoch = 0; epoch < 2; ++epoch) {
    std::vector<int64_t> seen;
    for (const Example& batch : prefetcher) {
      EXPECT_TRUE(batch.data.is_cpu());
      const auto t = batch.target.tolist<int64_t>();
      seen.insert(seen.end(), t.begin(), t.end());
    }
    EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  }
  EXPECT_EQ(loader.epoch(), 2) << "each begin() of the prefetcher starts an epoch of the loader";
}

TEST(DevicePrefetcher, RejectsDevicesItCannotCopyTo) {
  DataLoader loader(numbered(2));
  EXPECT_THAT(error_of([&] { DevicePrefetcher(loader, Device("cpu:1")); }),
              HasSubstr("[DevicePrefetcher] expected the cpu device, got cpu:1"));
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  EXPECT_THAT(error_of([&] { DevicePrefetcher(loader, Device("cuda")); }),
              HasSubstr("[DevicePrefetcher] cannot prefetch to cuda: no cuda device exists"));
}

TEST(DevicePrefetcher, IteratorsAreSinglePassAndStopAtTheEnd) {
  DataLoader loader(numbered(4), DataLoaderOptions().batch_size(2));
  DevicePrefetcher prefetcher(loader, Device(kCPU));
  auto it = prefetcher.begin();
  auto copy = it;
  EXPECT_EQ(it->target.tolist<int64_t>(), (std::vector<int64_t>{0, 1}));
  ++it;
  EXPECT_EQ(it->target.tolist<int64_t>(), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(error_of([&] { *copy; }), HasSubstr("iterators are single-pass"));
  ++it;
  EXPECT_TRUE(it == prefetcher.end());
  EXPECT_THAT(error_of([&] { ++it; }), HasSubstr("advanced an iterator past the end"));
}

}  // namespace
}  // namespace tide
