#include "memory/caching_allocator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "fake_upstream.h"
#include "tide/error.h"
#include "tide/scope.h"

namespace tide::memory {
namespace {

using ::testing::HasSubstr;
using testing::FakeDevice;
constexpr size_t kMiB = 1 << 20;

AllocatorConfig conf(const std::string& spec) { return AllocatorConfig::parse(spec); }

std::string oom_text(FakeDevice& dev, size_t n, uint64_t stream = 0) {
  try {
    dev.alloc->malloc(n, stream);
  } catch (const OutOfMemoryError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected OutOfMemoryError for " << n << " bytes";
  return "";
}

TEST(CachingAllocator, SplitsASegmentAndMergesItBackOnFree) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(1000, 0);
  Block* b = dev.alloc->malloc(3000, 0);
  EXPECT_EQ(CachingAllocator::size(a), 1024u);
  EXPECT_EQ(static_cast<char*>(CachingAllocator::ptr(b)), static_cast<char*>(CachingAllocator::ptr(a)) + 1024);
  auto segs = dev.alloc->segments();
  ASSERT_EQ(segs.size(), 1u);
  ASSERT_EQ(segs[0].blocks.size(), 3u);
  EXPECT_EQ(segs[0].blocks[0].state, "active_allocated");
  EXPECT_EQ(segs[0].blocks[2].state, "inactive");
  EXPECT_EQ(segs[0].segment_type, "small");
  EXPECT_EQ(segs[0].allocated_size, 1024 + 3072);
  EXPECT_EQ(segs[0].requested_size, 4000);
  dev.alloc->free(a);
  dev.alloc->check_invariants();
  EXPECT_EQ(dev.alloc->segments()[0].blocks.size(), 3u);  // a cannot merge: b is live
  dev.alloc->free(b);
  dev.alloc->check_invariants();
  segs = dev.alloc->segments();
  ASSERT_EQ(segs[0].blocks.size(), 1u);
  EXPECT_EQ(segs[0].blocks[0].size, int64_t{2 * kMiB});
}

TEST(CachingAllocator, ReusesAFreedBlockOnTheSameStreamAtOnce) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(4096, 7);
  void* p = CachingAllocator::ptr(a);
  dev.alloc->free(a);
  Block* b = dev.alloc->malloc(4096, 7);
  EXPECT_EQ(CachingAllocator::ptr(b), p);
  EXPECT_EQ(dev.stat("num_device_alloc"), 1);
}

TEST(CachingAllocator, NeverHandsABlockFreedOnOneStreamToAnother) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(4096, 1);
  void* p = CachingAllocator::ptr(a);
  dev.alloc->free(a);
  Block* b = dev.alloc->malloc(4096, 2);
  EXPECT_NE(CachingAllocator::ptr(b), p);
  EXPECT_EQ(dev.stat("segment.all.current"), 2);
  EXPECT_EQ(dev.alloc->segments()[1].stream, 2u);
}

TEST(CachingAllocator, KeepsABlockUsedOnAnotherStreamUntilThatStreamsMarkerCompletes) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(4096, 0);
  void* p = CachingAllocator::ptr(a);
  dev.alloc->record_stream(a, 5);
  dev.alloc->free(a);
  auto segs = dev.alloc->segments();
  EXPECT_EQ(segs[0].blocks[0].state, "active_pending_free");
  EXPECT_EQ(dev.stat("active.all.current"), 1);
  EXPECT_EQ(dev.stat("allocated_bytes.all.current"), 0);
  dev.alloc->check_invariants();
  // The hazard: stream 5 may still read the block, so stream 0 must not get it.
  Block* b = dev.alloc->malloc(4096, 0);
  EXPECT_NE(CachingAllocator::ptr(b), p);
  dev.alloc->free(b);
  dev.up->complete(5);
  Block* c = dev.alloc->malloc(4096, 0);  // malloc processes completed markers first
  EXPECT_EQ(CachingAllocator::ptr(c), p);
  EXPECT_EQ(dev.stat("active.all.current"), 1);
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, WaitsForEveryStreamThatUsedTheBlock) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(4096, 0);
  dev.alloc->record_stream(a, 1);
  dev.alloc->record_stream(a, 2);
  dev.alloc->record_stream(a, 2);  // recorded once
  dev.alloc->free(a);
  dev.up->complete(1);
  dev.alloc->free(dev.alloc->malloc(512, 0));  // polls markers
  EXPECT_EQ(dev.alloc->segments()[0].blocks[0].state, "active_pending_free");
  dev.up->complete(2);
  dev.alloc->free(dev.alloc->malloc(512, 0));
  EXPECT_EQ(dev.stat("active.all.current"), 0);
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, IgnoresRecordStreamOnTheAllocationStream) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(4096, 3);
  void* p = CachingAllocator::ptr(a);
  dev.alloc->record_stream(a, 3);
  dev.alloc->free(a);
  EXPECT_EQ(CachingAllocator::ptr(dev.alloc->malloc(4096, 3)), p);
  EXPECT_EQ(dev.up->synchronize_calls, 0);
}

TEST(CachingAllocator, EmptyCacheWaitsForPendingFreesAndReleasesOnlyUnusedSegments) {
  FakeDevice dev;
  Block* live = dev.alloc->malloc(2 * kMiB, 0);  // large pool, 20 MiB segment
  Block* pending = dev.alloc->malloc(512, 0);
  dev.alloc->record_stream(pending, 9);
  dev.alloc->free(pending);
  dev.alloc->empty_cache();
  EXPECT_EQ(dev.up->synchronize_calls, 1);
  EXPECT_EQ(dev.stat("num_sync_all_streams"), 1);
  EXPECT_EQ(dev.stat("reserved_bytes.all.current"), int64_t{20 * kMiB});
  EXPECT_EQ(dev.stat("segment.small_pool.current"), 0);
  EXPECT_EQ(dev.stat("num_device_free"), 1);
  EXPECT_EQ(dev.up->live_segments(), 1u);
  dev.alloc->free(live);
  dev.alloc->empty_cache();
  EXPECT_EQ(dev.stat("reserved_bytes.all.current"), 0);
  EXPECT_EQ(dev.up->live_segments(), 0u);
  EXPECT_EQ(dev.up->bad_frees, 0);
}

TEST(CachingAllocator, FreesTheCacheAndRetriesOnceWhenTheDeviceIsFull) {
  FakeDevice dev(64 * kMiB);
  dev.alloc->free(dev.alloc->malloc(30 * kMiB, 0));  // 30 MiB cached
  Block* b = dev.alloc->malloc(40 * kMiB, 0);        // 40 > 64 - 30: retry after freeing
  EXPECT_EQ(CachingAllocator::size(b), 40 * kMiB);
  EXPECT_EQ(dev.stat("num_alloc_retries"), 1);
  EXPECT_EQ(dev.stat("num_sync_all_streams"), 1);
  EXPECT_EQ(dev.stat("num_device_free"), 1);
  EXPECT_EQ(dev.stat("num_ooms"), 0);
  EXPECT_EQ(dev.stat("reserved_bytes.all.current"), int64_t{40 * kMiB});
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, ReleasesBlocksWaitingOnStreamsBeforeTheRetry) {
  FakeDevice dev(64 * kMiB);
  Block* a = dev.alloc->malloc(30 * kMiB, 0);
  dev.alloc->record_stream(a, 4);
  dev.alloc->free(a);  // pending on stream 4
  Block* b = dev.alloc->malloc(40 * kMiB, 0);
  EXPECT_EQ(CachingAllocator::size(b), 40 * kMiB);
  EXPECT_EQ(dev.up->synchronize_calls, 1);
  EXPECT_EQ(dev.stat("num_alloc_retries"), 1);
}

TEST(CachingAllocator, RaisesOutOfMemoryErrorThatExplainsItself) {
  FakeDevice dev(64 * kMiB);
  Block* live = dev.alloc->malloc(40 * kMiB, 0);
  std::string msg = oom_text(dev, 30 * kMiB);
  EXPECT_THAT(msg, HasSubstr("[CachingAllocator::malloc] CUDA out of memory. Tried to allocate 30.00 MiB"));
  EXPECT_THAT(msg, HasSubstr("31457280 bytes"));
  EXPECT_THAT(msg, HasSubstr("GPU 0 has a total capacity of 64.00 MiB of which 24.00 MiB is free"));
  EXPECT_THAT(msg, HasSubstr("40.00 MiB is allocated by tensors"));
  EXPECT_THAT(msg, HasSubstr("0 bytes is reserved by the caching allocator but unallocated"));
  EXPECT_THAT(msg, HasSubstr("largest free cached block is 0 bytes in 0 free cached blocks"));
  EXPECT_THAT(msg, HasSubstr("empty_cache"));
  EXPECT_THAT(msg, HasSubstr("smaller batch"));
  EXPECT_THAT(msg, HasSubstr("set_per_process_memory_fraction"));
  EXPECT_EQ(dev.stat("num_ooms"), 1);
  EXPECT_EQ(dev.stat("num_alloc_retries"), 1);
  EXPECT_EQ(dev.stat("allocated_bytes.all.current"), int64_t{40 * kMiB});
  dev.alloc->check_invariants();
  dev.alloc->free(live);
  EXPECT_NO_THROW(dev.alloc->malloc(30 * kMiB, 0));  // the allocator recovers
}

TEST(CachingAllocator, OutOfMemoryMessageNamesFragmentationAndMaxSplitSize) {
  FakeDevice dev(24 * kMiB);
  Block* a = dev.alloc->malloc(9 * kMiB, 0);  // 20 MiB segment: [a 9][11 free]
  Block* b = dev.alloc->malloc(9 * kMiB, 0);  // [a 9][b 9][2 free]
  dev.alloc->free(a);                         // [9 free][b 9][2 free]: 11 MiB unused
  std::string msg = oom_text(dev, 10 * kMiB);
  EXPECT_THAT(msg, HasSubstr("11.00 MiB is reserved by the caching allocator but unallocated"));
  EXPECT_THAT(msg, HasSubstr("largest free cached block is 9.00 MiB in 2 free cached blocks"));
  EXPECT_THAT(msg, HasSubstr("fragmentation"));
  EXPECT_THAT(msg, HasSubstr("max_split_size_mb:N"));
  dev.alloc->free(b);
}

TEST(CachingAllocator, FractionLimitFailsLikeAnOutOfMemory) {
  FakeDevice dev(100 * kMiB);
  dev.alloc->set_memory_fraction(0.5);
  Block* a = dev.alloc->malloc(40 * kMiB, 0);
  std::string msg = oom_text(dev, 2 * kMiB);  // a 20 MiB segment: 60 MiB > 50 MiB allowed
  EXPECT_THAT(msg, HasSubstr("limited to 50.00 MiB (set_per_process_memory_fraction(0.5))"));
  EXPECT_THAT(msg, HasSubstr("raise the limit"));
  EXPECT_EQ(dev.stat("num_ooms"), 1);
  EXPECT_NO_THROW(dev.alloc->malloc(512, 0));  // 2 MiB small segment: 42 MiB <= 50 MiB
  dev.alloc->free(a);
}

TEST(CachingAllocator, RejectsAFractionOutsideZeroToOne) {
  FakeDevice dev;
  try {
    dev.alloc->set_memory_fraction(1.5);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Invalid fraction value: 1.5. Allowed range: 0~1"));
  }
  EXPECT_THROW(dev.alloc->set_memory_fraction(-0.1), Error);
}

TEST(CachingAllocator, InjectedOomFailsTheNthMallocExactlyLikeARealOne) {
  FakeDevice dev;
  dev.alloc->free(dev.alloc->malloc(4096, 0));  // the size is cached: a real malloc would hit
  dev.alloc->inject_oom_at(2);
  Block* first = dev.alloc->malloc(4096, 0);
  std::string msg = oom_text(dev, 4096);
  EXPECT_THAT(msg, HasSubstr("CUDA out of memory. Tried to allocate 4.00 KiB"));
  EXPECT_THAT(msg, HasSubstr("injected"));
  EXPECT_EQ(dev.stat("num_ooms"), 1);
  EXPECT_EQ(dev.stat("num_alloc_retries"), 1);
  EXPECT_EQ(dev.stat("num_sync_all_streams"), 1);
  EXPECT_NO_THROW(dev.alloc->free(dev.alloc->malloc(4096, 0)));  // one-shot
  dev.alloc->free(first);
  dev.alloc->inject_oom_at(1);
  dev.alloc->inject_oom_at(0);  // disarms
  EXPECT_NO_THROW(dev.alloc->free(dev.alloc->malloc(4096, 0)));
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, RejectsANegativeInjectionCount) {
  FakeDevice dev;
  try {
    dev.alloc->inject_oom_at(-1);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[inject_oom_at] expected n >= 0"));
  }
}

TEST(CachingAllocator, ReadsTideFaultOomAtWhenCreated) {
  setenv("TIDE_FAULT_OOM_AT", "1", 1);
  FakeDevice dev;
  unsetenv("TIDE_FAULT_OOM_AT");
  EXPECT_THAT(oom_text(dev, 512), HasSubstr("injected"));
  EXPECT_NO_THROW(dev.alloc->malloc(512, 0));
}

TEST(CachingAllocator, RejectsABadTideFaultOomAt) {
  setenv("TIDE_FAULT_OOM_AT", "soon", 1);
  try {
    FakeDevice dev;
    unsetenv("TIDE_FAULT_OOM_AT");
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    unsetenv("TIDE_FAULT_OOM_AT");
    EXPECT_THAT(e.what(), HasSubstr("[TIDE_FAULT_OOM_AT] expected a non-negative integer"));
    EXPECT_THAT(e.what(), HasSubstr("'soon'"));
  }
}

TEST(CachingAllocator, MaxSplitSizeKeepsOversizeBlocksForOversizeRequests) {
  FakeDevice dev(int64_t{1} << 34, conf("max_split_size_mb:40"));
  EXPECT_EQ(dev.stat("max_split_size"), int64_t{40 * kMiB});
  Block* big = dev.alloc->malloc(50 * kMiB, 0);
  EXPECT_EQ(dev.stat("oversize_allocations.current"), 1);
  EXPECT_EQ(dev.stat("oversize_segments.current"), 1);
  dev.alloc->free(big);
  EXPECT_EQ(dev.stat("oversize_allocations.current"), 0);
  // A request below max_split_size never takes (or splits) an oversize block.
  Block* small = dev.alloc->malloc(30 * kMiB, 0);
  EXPECT_EQ(dev.stat("num_device_alloc"), 2);
  // An oversize request takes an oversize block less than 20 MiB larger, whole.
  Block* over = dev.alloc->malloc(45 * kMiB, 0);
  EXPECT_EQ(CachingAllocator::size(over), 50 * kMiB);
  EXPECT_EQ(dev.stat("num_device_alloc"), 2);
  dev.alloc->free(over);
  // ... but not one 20 MiB or more larger than the request.
  Block* over2 = dev.alloc->malloc(30 * kMiB, 0);  // not oversize: the free 50 MiB block is off limits
  EXPECT_EQ(dev.stat("num_device_alloc"), 3);
  dev.alloc->free(over2);
  dev.alloc->free(small);
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, MaxSplitSizeRejectsAnOversizeBlockTwentyMiBLargerThanTheRequest) {
  FakeDevice dev(int64_t{1} << 34, conf("max_split_size_mb:40"));
  dev.alloc->free(dev.alloc->malloc(62 * kMiB, 0));
  Block* b = dev.alloc->malloc(42 * kMiB, 0);  // 62 >= 42 + 20: a new 42 MiB segment
  EXPECT_EQ(CachingAllocator::size(b), 42 * kMiB);
  EXPECT_EQ(dev.stat("num_device_alloc"), 2);
  Block* c = dev.alloc->malloc(43 * kMiB, 0);  // 62 < 43 + 20: reuses the 62 MiB block
  EXPECT_EQ(CachingAllocator::size(c), 62 * kMiB);
  EXPECT_EQ(dev.stat("num_device_alloc"), 2);
}

TEST(CachingAllocator, MaxSplitSizeReleasesOversizeCachedBlocksBeforeFreeingEverything) {
  FakeDevice dev(100 * kMiB, conf("max_split_size_mb:40"));
  dev.alloc->free(dev.alloc->malloc(50 * kMiB, 0));
  Block* b = dev.alloc->malloc(30 * kMiB, 0);  // fits beside the cached 50 MiB
  dev.alloc->free(dev.alloc->malloc(60 * kMiB, 0));  // 50 + 30 + 60 > 100
  EXPECT_EQ(dev.stat("num_device_free"), 1);
  dev.alloc->free(b);
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, RoundsUpToPowerOfTwoDivisions) {
  FakeDevice dev(int64_t{1} << 34, conf("roundup_power2_divisions:4"));
  EXPECT_EQ(CachingAllocator::size(dev.alloc->malloc(1000, 0)), 1024u);    // <= 512·4: plain rounding
  EXPECT_EQ(CachingAllocator::size(dev.alloc->malloc(9000, 0)), 10240u);   // 8192 + 2048
  EXPECT_EQ(CachingAllocator::size(dev.alloc->malloc(8192, 0)), 8192u);    // a power of two
  EXPECT_EQ(CachingAllocator::size(dev.alloc->malloc(kMiB + 1, 0)), 1310720u);  // 1 MiB + 256 KiB
}

TEST(CachingAllocator, GarbageCollectsOldCachedBlocksOnlyWithAFractionSet) {
  FakeDevice dev(100 * kMiB, conf("garbage_collection_threshold:0.5"));
  Block* a = dev.alloc->malloc(30 * kMiB, 0);
  Block* b = dev.alloc->malloc(30 * kMiB, 0);
  dev.alloc->free(a);
  dev.alloc->free(b);
  dev.alloc->free(dev.alloc->malloc(512, 0));  // no fraction: no collection
  EXPECT_EQ(dev.stat("reserved_bytes.all.current"), int64_t{62 * kMiB});
  dev.alloc->set_memory_fraction(1.0);
  dev.alloc->free(dev.alloc->malloc(3 * kMiB, 1));  // new segment while 62 MiB > 50 MiB
  EXPECT_LE(dev.stat("reserved_bytes.all.current"), int64_t{50 * kMiB});
  EXPECT_GE(dev.stat("num_device_free"), 1);
  EXPECT_EQ(dev.stat("num_ooms"), 0);
  dev.alloc->check_invariants();
}

TEST(CachingAllocator, RecordsHistoryWithOpAndScope) {
  FakeDevice dev;
  dev.alloc->record_history(true, 100);
  {
    Scope s("forward");
    Block* a = dev.alloc->malloc(512, 3, "empty");
    auto segs = dev.alloc->segments();
    EXPECT_STREQ(segs[0].blocks[0].op, "empty");
    EXPECT_STREQ(segs[0].blocks[0].scope, "forward");
    dev.alloc->free(a);
  }
  auto t = dev.alloc->trace();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].action, TraceEntry::Action::SegmentAlloc);
  EXPECT_EQ(t[0].size, int64_t{2 * kMiB});
  EXPECT_EQ(t[1].action, TraceEntry::Action::Alloc);
  EXPECT_EQ(t[1].size, 512);
  EXPECT_EQ(t[1].stream, 3u);
  EXPECT_STREQ(t[1].op, "empty");
  EXPECT_STREQ(t[1].scope, "forward");
  EXPECT_EQ(t[2].action, TraceEntry::Action::FreeRequested);
  EXPECT_EQ(t[3].action, TraceEntry::Action::FreeCompleted);
  EXPECT_EQ(t[3].addr, t[1].addr);
  EXPECT_LE(t[0].time_us, t[3].time_us);
  dev.alloc->empty_cache();
  EXPECT_EQ(dev.alloc->trace().back().action, TraceEntry::Action::SegmentFree);
  dev.alloc->inject_oom_at(1);
  EXPECT_THROW(dev.alloc->malloc(100, 0), OutOfMemoryError);
  EXPECT_EQ(dev.alloc->trace().back().action, TraceEntry::Action::Oom);
  EXPECT_EQ(dev.alloc->trace().back().size, 100);
}

TEST(CachingAllocator, HistoryKeepsTheLastMaxEntriesInOrder) {
  FakeDevice dev;
  dev.alloc->free(dev.alloc->malloc(512, 0));
  dev.alloc->record_history(true, 3);
  for (size_t n : {512u, 1024u, 1536u}) dev.alloc->free(dev.alloc->malloc(n, 0));
  auto t = dev.alloc->trace();
  ASSERT_EQ(t.size(), 3u);  // 9 events recorded; the last malloc/free pair's remain
  EXPECT_EQ(t[0].action, TraceEntry::Action::Alloc);
  EXPECT_EQ(t[0].size, 1536);
  EXPECT_EQ(t[1].action, TraceEntry::Action::FreeRequested);
  EXPECT_EQ(t[2].action, TraceEntry::Action::FreeCompleted);
  dev.alloc->record_history(false, 0);
  dev.alloc->free(dev.alloc->malloc(512, 0));
  EXPECT_EQ(dev.alloc->trace().size(), 3u);  // stopped, kept
}

TEST(CachingAllocator, ReportsEveryTorchStatKey) {
  FakeDevice dev;
  auto s = dev.alloc->stats();
  for (const char* name : {"allocation", "segment", "active", "inactive_split", "allocated_bytes", "reserved_bytes",
                           "active_bytes", "inactive_split_bytes", "requested_bytes"}) {
    for (const char* pool : {"all", "small_pool", "large_pool"}) {
      for (const char* m : {"current", "peak", "allocated", "freed"}) {
        EXPECT_EQ(s.count(std::string(name) + "." + pool + "." + m), 1u) << name << pool << m;
      }
    }
  }
  for (const char* key : {"num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc",
                          "num_device_free", "max_split_size", "oversize_allocations.current",
                          "oversize_allocations.peak", "oversize_segments.allocated", "oversize_segments.freed"}) {
    EXPECT_EQ(s.count(key), 1u) << key;
  }
  EXPECT_EQ(s["max_split_size"], -1);
  EXPECT_EQ(s.size(), 9u * 3 * 4 + 6 + 2 * 4);
}

TEST(CachingAllocator, ResetsPeaksToCurrentAndAccumulatedToZero) {
  FakeDevice dev;
  Block* a = dev.alloc->malloc(4 * kMiB, 0);
  dev.alloc->free(dev.alloc->malloc(4 * kMiB, 0));
  EXPECT_EQ(dev.stat("allocated_bytes.all.peak"), int64_t{8 * kMiB});
  dev.alloc->reset_peak_stats();
  EXPECT_EQ(dev.stat("allocated_bytes.all.peak"), int64_t{4 * kMiB});
  EXPECT_EQ(dev.stat("allocated_bytes.all.allocated"), int64_t{8 * kMiB});
  dev.alloc->reset_accumulated_stats();
  EXPECT_EQ(dev.stat("allocated_bytes.all.allocated"), 0);
  EXPECT_EQ(dev.stat("num_device_alloc"), 0);
  EXPECT_EQ(dev.stat("allocated_bytes.all.current"), int64_t{4 * kMiB});
  dev.alloc->free(a);
}

TEST(CachingAllocator, MemGetInfoReportsTheDevicesFreeAndTotal) {
  FakeDevice dev(64 * kMiB);
  dev.alloc->malloc(512, 0);
  auto [free, total] = dev.alloc->mem_get_info();
  EXPECT_EQ(total, int64_t{64 * kMiB});
  EXPECT_EQ(free, int64_t{62 * kMiB});
}

struct CountingUpstream : testing::FakeUpstream {
  CountingUpstream(int64_t capacity, int* frees) : FakeUpstream(capacity), frees_(frees) {}
  void raw_free(void* p, size_t n) noexcept override {
    FakeUpstream::raw_free(p, n);
    ++*frees_;
  }
  int* frees_;
};

TEST(CachingAllocator, ReturnsEverySegmentToTheDeviceWhenDestroyed) {
  int frees = 0;
  {
    CachingAllocator a(0, std::make_unique<CountingUpstream>(int64_t{1} << 30, &frees), {});
    a.malloc(512, 0);                  // still allocated: released with the allocator
    a.free(a.malloc(30 * kMiB, 0));    // cached
    EXPECT_EQ(frees, 0);
  }
  EXPECT_EQ(frees, 2);
}

}  // namespace
}  // namespace tide::memory
