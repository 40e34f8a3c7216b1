// replay_snapshot: a snapshot's history through a fresh allocator reproduces the recorder's
// peaks, honours other settings, and reads torch's snapshots (src/memory/replay.h).

#include "memory/replay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "memory/caching_allocator.h"
#include "memory_history/test_upstream.h"
#include "tide/error.h"

using ::testing::HasSubstr;

namespace tide::memory {
namespace {

constexpr int64_t kMiB = 1 << 20;

std::unique_ptr<CachingAllocator> make_allocator(const AllocatorConfig& config = {}) {
  return std::make_unique<CachingAllocator>(0, std::make_unique<testing::TestUpstream>(), config);
}

int64_t stat(CachingAllocator& a, const char* key) { return a.stats().at(key); }

Snapshot snapshot_of(CachingAllocator& a) {
  return parse_snapshot(snapshot_json({&a}), "recorded", "test");
}

TEST(Replay, ReproducesTheRecordedPeaksOfARandomWorkload) {
  auto allocator = make_allocator();
  allocator->record_history(true, 1000000);
  std::mt19937 rng(7);
  // Sizes around every threshold: small, 1 MiB, 1-10 MiB, above 10 MiB.
  const std::vector<size_t> sizes = {1,        511,     512,      513,      4000,
                                     kMiB - 1, kMiB,    kMiB + 1, 3 * kMiB, 9 * kMiB + 7,
                                     10 * kMiB, 10 * kMiB + 1, 33 * kMiB};
  std::vector<Block*> live;
  for (int step = 0; step < 3000; ++step) {
    bool do_alloc = live.empty() || (live.size() < 40 && rng() % 100 < 55);
    if (do_alloc) {
      live.push_back(allocator->malloc(sizes[rng() % sizes.size()], 0, "rand"));
    } else {
      size_t i = rng() % live.size();
      allocator->free(live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  ReplayResult r = replay_snapshot(snapshot_of(*allocator), AllocatorConfig{}, "recorded");
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceReplay& d = r.devices[0];
  EXPECT_TRUE(r.had_history);
  EXPECT_EQ(d.initial_allocations, 0);
  EXPECT_EQ(d.unmatched_frees, 0);
  EXPECT_EQ(d.peak_allocated, stat(*allocator, "allocated_bytes.all.peak"));
  EXPECT_EQ(d.peak_reserved, stat(*allocator, "reserved_bytes.all.peak"));
  EXPECT_EQ(d.end_allocated, stat(*allocator, "allocated_bytes.all.current"));
  EXPECT_EQ(d.end_reserved, stat(*allocator, "reserved_bytes.all.current"));
  EXPECT_EQ(d.snapshot_reserved, stat(*allocator, "reserved_bytes.all.current"));
  EXPECT_EQ(d.allocations, stat(*allocator, "allocation.all.allocated"));
  EXPECT_EQ(d.frees, stat(*allocator, "allocation.all.freed"));
  for (Block* b : live) allocator->free(b);
}

TEST(Replay, CountsAllocationsAliveBeforeHistoryWasSwitchedOn) {
  auto allocator = make_allocator();
  Block* before = allocator->malloc(6 * kMiB, 0, "before");
  Block* kept = allocator->malloc(4 * kMiB, 0, "kept");
  allocator->reset_peak_stats();
  allocator->record_history(true, 1000);
  allocator->free(before);
  Block* after = allocator->malloc(12 * kMiB, 0, "after");
  ReplayResult r = replay_snapshot(snapshot_of(*allocator), AllocatorConfig{}, "recorded");
  const DeviceReplay& d = r.devices[0];
  EXPECT_EQ(d.initial_allocations, 2);  // "before" (freed first), "kept" (active, untraced)
  EXPECT_EQ(d.peak_allocated, stat(*allocator, "allocated_bytes.all.peak"));
  EXPECT_EQ(d.peak_reserved, stat(*allocator, "reserved_bytes.all.peak"));
  allocator->free(kept);
  allocator->free(after);
}

TEST(Replay, OtherSettingsChangeWhatIsReserved) {
  // A 30 MiB block cached, then an 8 MiB request: by default it is split from the cached
  // block; with max_split_size_mb:21 the oversize block serves no smaller request, so a
  // new 20 MiB segment is reserved.
  auto allocator = make_allocator();
  allocator->record_history(true, 100);
  allocator->free(allocator->malloc(30 * kMiB, 0, "big"));
  Block* b = allocator->malloc(8 * kMiB, 0, "small");
  Snapshot snap = snapshot_of(*allocator);

  ReplayResult defaults = replay_snapshot(snap, AllocatorConfig{}, "recorded");
  EXPECT_EQ(defaults.devices[0].peak_reserved, 30 * kMiB);
  ReplayResult split_limit =
      replay_snapshot(snap, AllocatorConfig::parse("max_split_size_mb:21"), "recorded");
  EXPECT_EQ(split_limit.devices[0].peak_reserved, 50 * kMiB);
  EXPECT_EQ(split_limit.devices[0].peak_allocated, 30 * kMiB);
  EXPECT_NEAR(split_limit.devices[0].fragmentation(), 1.0 - 30.0 / 50.0, 1e-12);
  allocator->free(b);
}

// tests/fixtures/torch_snapshot_sample.json follows torch's allocator by hand: a 2 MiB small
// segment (a 512 B block alive before history, then 1000 B), a 20 MiB segment for 4 MiB and
// 8 MiB, and a 12 MiB segment for a 12 MiB request (> 10 MiB: rounded to 2 MiB).
TEST(Replay, ReplaysATorchSnapshot) {
  Snapshot snap = read_snapshot_file(TIDE_TEST_DATA_DIR "/torch_snapshot_sample.json", "test");
  ReplayResult r = replay_snapshot(snap, AllocatorConfig{}, "torch_snapshot_sample.json");
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceReplay& d = r.devices[0];
  EXPECT_TRUE(r.had_history);
  EXPECT_EQ(d.trace_entries, 16);
  EXPECT_EQ(d.initial_allocations, 1);
  EXPECT_EQ(d.allocations, 5);
  EXPECT_EQ(d.frees, 4);
  EXPECT_EQ(d.peak_allocated, 20 * kMiB + 1024);
  EXPECT_EQ(d.peak_reserved, 34 * kMiB);
  EXPECT_EQ(d.end_allocated, 1024);
  EXPECT_EQ(d.end_reserved, 34 * kMiB);
  EXPECT_EQ(d.snapshot_reserved, 34 * kMiB);
  EXPECT_NEAR(d.fragmentation(), 1.0 - (20.0 * kMiB + 1024) / (34.0 * kMiB), 1e-12);
}

TEST(Replay, ReplaysTheLiveBlocksOfATorchSnapshotWithoutHistory) {
  Snapshot snap = read_snapshot_file(TIDE_TEST_DATA_DIR "/torch_snapshot_no_history.json", "test");
  ReplayResult r = replay_snapshot(snap, AllocatorConfig{}, "no_history.json");
  EXPECT_FALSE(r.had_history);
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].allocations, 2);
  EXPECT_EQ(r.devices[0].initial_allocations, 2);
  EXPECT_EQ(r.devices[0].peak_allocated, 6 * kMiB + 1024);
  EXPECT_EQ(r.devices[0].peak_reserved, 22 * kMiB);
}

TEST(Replay, SaysHowToRecordHistoryWhenThereIsNothingToReplay) {
  Snapshot snap = parse_snapshot(R"({"segments": [], "device_traces": [[]]})", "empty.json", "t");
  try {
    replay_snapshot(snap, AllocatorConfig{}, "empty.json");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide replay] 'empty.json' holds no allocation to replay"));
    EXPECT_THAT(e.what(), HasSubstr("history"));
    EXPECT_THAT(e.what(), HasSubstr("torch.cuda.memory._record_memory_history()"));
  }
}

}  // namespace
}  // namespace tide::memory
