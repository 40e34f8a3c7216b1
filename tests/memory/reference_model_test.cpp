// Random alloc/free/record_stream/marker/empty_cache sequences checked against a simple
// reference model of what the allocator promises.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "fake_upstream.h"
#include "memory/caching_allocator.h"
#include "tide/error.h"

namespace tide::memory {
namespace {

constexpr size_t kMiB = 1 << 20;

// torch's round_size, written independently: 512 B steps, or with N divisions the next
// of N equal steps between two powers of two (for sizes above 512·N).
size_t rounded(size_t n, size_t divisions) {
  if (n < 512) return 512;
  if (divisions > 1 && n > 512 * divisions) {
    size_t p = 1;
    while (p * 2 <= n) p *= 2;
    if (p == n) return n;
    size_t step = p / divisions;
    return (n + step - 1) / step * step;
  }
  return (n + 511) / 512 * 512;
}

struct Live {
  Block* block;
  size_t requested;
  uint64_t stream;
};

struct Pending {  // freed, waiting on other streams
  uintptr_t ptr;
  size_t size;
  size_t requested;  // still counted in requested_bytes (torch: until the free completes)
  std::set<uint64_t> streams;
};

size_t random_size(std::mt19937_64& rng) {
  static const size_t kEdges[] = {1, 511, 512, 513, kMiB - 1, kMiB, kMiB + 1, 10 * kMiB - 1, 10 * kMiB,
                                  10 * kMiB + 1, 21 * kMiB};
  switch (rng() % 4) {
    case 0: return kEdges[rng() % std::size(kEdges)];
    case 1: return rng() % 4096;
    case 2: return rng() % (2 * kMiB);
    default: return rng() % (24 * kMiB);
  }
}

void check_against_model(testing::FakeDevice& dev, const std::vector<Live>& live,
                         const std::vector<Pending>& pending, size_t divisions, bool deep) {
  auto stats = dev.alloc->stats();
  int64_t allocated = 0, requested = 0;
  std::vector<std::pair<uintptr_t, size_t>> ranges;
  for (const Live& l : live) {
    size_t size = CachingAllocator::size(l.block);
    size_t want = rounded(l.requested, divisions);
    ASSERT_GE(size, want);
    // An unsplit remainder is < 512 B (small pool) or <= 1 MiB (large pool).
    ASSERT_LE(size - want, want <= kMiB ? 511u : kMiB);
    allocated += static_cast<int64_t>(size);
    requested += static_cast<int64_t>(l.requested);
    ranges.emplace_back(reinterpret_cast<uintptr_t>(CachingAllocator::ptr(l.block)), size);
  }
  for (const Pending& p : pending) requested += static_cast<int64_t>(p.requested);
  ASSERT_EQ(stats["allocated_bytes.all.current"], allocated);
  ASSERT_EQ(stats["requested_bytes.all.current"], requested);
  ASSERT_EQ(stats["allocation.all.current"], static_cast<int64_t>(live.size()));
  ASSERT_EQ(stats["reserved_bytes.all.current"], dev.up->raw_in_use());
  for (const Pending& p : pending) ranges.emplace_back(p.ptr, p.size);
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    ASSERT_LE(ranges[i - 1].first + ranges[i - 1].second, ranges[i].first) << "live or pending blocks overlap";
  }
  if (!deep) return;
  dev.alloc->check_invariants();
  int64_t reserved = 0;
  std::map<uintptr_t, const SegmentInfo*> by_addr;
  auto segs = dev.alloc->segments();
  for (const SegmentInfo& s : segs) {
    reserved += s.total_size;
    by_addr[s.address] = &s;
  }
  ASSERT_EQ(stats["reserved_bytes.all.current"], reserved);
  for (const Live& l : live) {  // every live block lies in a segment of its own stream
    auto p = reinterpret_cast<uintptr_t>(CachingAllocator::ptr(l.block));
    auto it = by_addr.upper_bound(p);
    ASSERT_NE(it, by_addr.begin());
    --it;
    ASSERT_LT(p, it->first + static_cast<uintptr_t>(it->second->total_size));
    ASSERT_EQ(it->second->stream, l.stream);
  }
}

TEST(ReferenceModel, RandomSequencesKeepEveryPromise) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    AllocatorConfig config;
    if (seed % 3 == 0) config = AllocatorConfig::parse("roundup_power2_divisions:4");
    testing::FakeDevice dev(256 * kMiB, config);
    std::vector<Live> live;
    std::vector<Pending> pending;
    for (int step = 0; step < 3000; ++step) {
      unsigned op = rng() % 100;
      if (op < 45) {
        uint64_t stream = rng() % 3;
        size_t n = random_size(rng);
        pending.erase(std::remove_if(pending.begin(), pending.end(), [](const Pending& q) { return q.streams.empty(); }),
                      pending.end());
        Block* b = nullptr;
        const int64_t syncs = dev.stat("num_sync_all_streams");
        try {
          b = dev.alloc->malloc(n, stream);
        } catch (const OutOfMemoryError&) {
        }
        if (dev.stat("num_sync_all_streams") != syncs) pending.clear();  // the retry waited for every marker
        if (!b) continue;
        // A fresh block must not overlap a block still waiting on another stream.
        auto p = reinterpret_cast<uintptr_t>(CachingAllocator::ptr(b));
        for (const Pending& q : pending) {
          ASSERT_TRUE(p + CachingAllocator::size(b) <= q.ptr || q.ptr + q.size <= p) << "reused a pending block";
        }
        live.push_back({b, n, stream});
      } else if (op < 85 && !live.empty()) {
        size_t i = rng() % live.size();
        Live l = live[i];
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        std::set<uint64_t> others;
        if (rng() % 4 == 0) {
          uint64_t s = rng() % 3;
          dev.alloc->record_stream(l.block, s);
          if (s != l.stream) others.insert(s);
        }
        auto ptr = reinterpret_cast<uintptr_t>(CachingAllocator::ptr(l.block));
        size_t size = CachingAllocator::size(l.block);
        dev.alloc->free(l.block);
        if (!others.empty()) pending.push_back({ptr, size, l.requested, others});
      } else if (op < 95) {
        uint64_t s = rng() % 3;
        dev.up->complete(s);
        // Completed blocks still count as active until the next malloc processes markers.
        for (Pending& q : pending) q.streams.erase(s);
      } else {
        dev.alloc->empty_cache();  // waits for every marker
        pending.clear();
      }
      check_against_model(dev, live, pending, seed % 3 == 0 ? 4 : 0, step % 50 == 0);
      if (::testing::Test::HasFatalFailure()) return;
    }
    for (Live& l : live) dev.alloc->free(l.block);
    dev.alloc->empty_cache();
    dev.alloc->check_invariants();
    EXPECT_EQ(dev.up->raw_in_use(), 0);
    EXPECT_EQ(dev.up->bad_frees, 0);
    auto s = dev.alloc->stats();
    EXPECT_EQ(s["active.all.current"], 0);
    EXPECT_EQ(s["inactive_split.all.current"], 0);
    EXPECT_EQ(s["allocation.all.allocated"], s["allocation.all.freed"]);
  }
}

}  // namespace
}  // namespace tide::memory
