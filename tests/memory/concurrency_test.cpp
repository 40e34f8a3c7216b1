// Many threads on one allocator: the mutex keeps blocks, pools and stats consistent
// (also run under TSan).

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "fake_upstream.h"
#include "memory/caching_allocator.h"

namespace tide::memory {
namespace {

TEST(Concurrency, ThreadsAllocatingFreeingAndRecordingStreamsLeaveConsistentState) {
  testing::FakeDevice dev(int64_t{1} << 32);
  constexpr int kThreads = 4;
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t + 1));
      std::vector<Block*> mine;
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < 4000; ++i) {
        unsigned op = rng() % 10;
        if (op < 5 || mine.empty()) {
          size_t n = (rng() % 3 == 0) ? rng() % (4 << 20) : rng() % 8192;
          mine.push_back(dev.alloc->malloc(n, static_cast<uint64_t>(t)));
        } else if (op < 9) {
          size_t k = rng() % mine.size();
          if (rng() % 8 == 0) dev.alloc->record_stream(mine[k], static_cast<uint64_t>((t + 1) % kThreads));
          dev.alloc->free(mine[k]);
          mine[k] = mine.back();
          mine.pop_back();
        } else if (i % 500 == 0) {
          dev.alloc->empty_cache();
        } else {
          dev.up->complete(static_cast<uint64_t>(t));
          (void)dev.alloc->stats();
        }
      }
      for (Block* b : mine) dev.alloc->free(b);
    });
  }
  go = true;
  for (auto& th : threads) th.join();
  dev.up->complete_all();
  dev.alloc->check_invariants();
  dev.alloc->empty_cache();
  auto s = dev.alloc->stats();
  EXPECT_EQ(s["allocated_bytes.all.current"], 0);
  EXPECT_EQ(s["active.all.current"], 0);
  EXPECT_EQ(s["reserved_bytes.all.current"], 0);
  EXPECT_EQ(dev.up->raw_in_use(), 0);
  EXPECT_EQ(dev.up->bad_frees, 0);
}

}  // namespace
}  // namespace tide::memory
