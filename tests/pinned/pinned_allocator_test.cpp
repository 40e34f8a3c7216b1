// The caching pinned host allocator (Note [Pinned host memory]): power-of-two blocks reused
// from a cache, never handed out while a copy enqueued on some stream may still read or write
// them, torch's host_memory_stats() figures, host_empty_cache(), and fault injection.

#include "memory/pinned_allocator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "pinned_helpers.h"
#include "runtime/launch.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using test::host_stat;
using test::quiesce_pinned_memory;
using tide::testing::StreamHold;
using ::testing::HasSubstr;

namespace {

const TensorOptions kPinned = TensorOptions().pinned_memory(true);

int last_device() { return cuda::device_count() - 1; }

/// Enqueues on `stream` a task that runs until the returned promise is fulfilled: the stream's
/// later work (and every event recorded after it) stays pending until then.
std::shared_ptr<std::promise<void>> block_stream(const cuda::Stream& stream) {
  auto gate = std::make_shared<std::promise<void>>();
  std::shared_future<void> opened = gate->get_future().share();
  runtime::launch(stream, "test_gate", [opened] { opened.wait(); });
  return gate;
}

}  // namespace

// --- reuse safety -----------------------------------------------------------------------

TEST(PinnedAllocator, ABlockNoStreamUsedIsReusedAtOnce) {
  TIDE_REQUIRE_DEVICES(1);
  quiesce_pinned_memory();
  void* addr = empty({1000}, kPinned).raw_data();  // 4000 bytes: a 4096-byte block
  Tensor again = empty({1024}, kPinned);           // same power of two
  EXPECT_EQ(again.raw_data(), addr);
  Tensor bigger = empty({1025}, kPinned);  // 8192 bytes: another size class
  EXPECT_NE(bigger.raw_data(), addr);
}

TEST(PinnedAllocator, ABlockAPendingCopyReadsIsNotHandedOutUntilTheCopyCompleted) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  quiesce_pinned_memory();
  const int dev = last_device();
  Tensor dst = empty({1024}, device(Device(kCUDA, dev)));
  cuda::Stream s(dev);
  void* addr = nullptr;
  std::shared_ptr<std::promise<void>> gate;
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    Tensor src = full({1024}, 5.0, kPinned);
    addr = src.raw_data();
    dst.copy_(src, /*non_blocking=*/true);  // records s's use of src's block
    cuda::Event copied = s.record_event();
    gate = block_stream(s);                 // work behind the copy keeps s busy
    src = Tensor();                         // the user's last reference is gone
    hold.release();
    copied.synchronize();  // the copy ran and let go of src: the block is freed, but the
                           // event recorded on s at that moment is behind the gate
  }
  Tensor other = empty({1024}, kPinned);
  EXPECT_NE(other.raw_data(), addr) << "handed out a block whose stream work is still pending";
  EXPECT_EQ(host_stat("allocation.current"), 2) << "the pending block counts until reusable";
  gate->set_value();
  s.synchronize();
  Tensor reused = empty({1024}, kPinned);
  EXPECT_EQ(reused.raw_data(), addr) << "once the stream's work completed the block is reusable";
  EXPECT_EQ(dst.tolist<float>(), std::vector<float>(1024, 5.f));
}

TEST(PinnedAllocator, ABlockAPendingCopyWritesIsNotHandedOutUntilTheCopyCompleted) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  quiesce_pinned_memory();
  const int dev = last_device();
  Tensor src = full({1024}, 3.0, device(Device(kCUDA, dev)));
  cuda::synchronize(dev);
  cuda::Stream s(dev);
  void* addr = nullptr;
  std::shared_ptr<std::promise<void>> gate;
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    Tensor dst = empty({1024}, kPinned);
    addr = dst.raw_data();
    dst.copy_(src, /*non_blocking=*/true);  // device -> pinned: records s's use
    cuda::Event copied = s.record_event();
    gate = block_stream(s);
    dst = Tensor();
    hold.release();
    copied.synchronize();
  }
  Tensor other = empty({1024}, kPinned);
  EXPECT_NE(other.raw_data(), addr);
  gate->set_value();
  s.synchronize();
  EXPECT_EQ(empty({1024}, kPinned).raw_data(), addr);
}

TEST(PinnedAllocator, ABlockUsedOnSeveralStreamsWaitsForEveryOne) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  quiesce_pinned_memory();
  cuda::Stream s1(0);
  cuda::Stream s2(last_device());  // another device where there is one, else another stream
  ASSERT_NE(s1, s2);
  Allocator* pinned = memory::pinned_allocator();
  DataPtr block = pinned->allocate(4000);
  void* addr = block.get();
  StreamHold h1(s1), h2(s2);
  runtime::launch(s1, "pending_read", [] {});
  runtime::launch(s2, "pending_read", [] {});
  EXPECT_TRUE(memory::record_pinned_use(block, s1));
  EXPECT_TRUE(memory::record_pinned_use(block, s2));
  EXPECT_TRUE(memory::record_pinned_use(block, s1));  // a second use of s1 changes nothing
  block.reset();
  DataPtr b2 = pinned->allocate(4096);
  EXPECT_NE(b2.get(), addr);
  h1.release();
  s1.synchronize();
  DataPtr b3 = pinned->allocate(2049);  // rounds to 4096 as well
  EXPECT_NE(b3.get(), addr) << "reused while the second stream's work was pending";
  h2.release();
  s2.synchronize();
  DataPtr b4 = pinned->allocate(4096);
  EXPECT_EQ(b4.get(), addr);
}

TEST(PinnedAllocator, RecordingAUseOfMemoryItDidNotAllocateDoesNothing) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor pageable = ones({4});
  Tensor on_device = ones({4}, device("cuda:0"));
  EXPECT_FALSE(memory::record_pinned_use(pageable.storage().data_ptr(), cuda::current_stream(0)));
  EXPECT_FALSE(memory::record_pinned_use(on_device.storage().data_ptr(), cuda::current_stream(0)));
  EXPECT_FALSE(memory::record_pinned_use(DataPtr(), cuda::current_stream(0)));
}

TEST(PinnedAllocator, ConcurrentPinnedCopiesFromManyThreadsKeepTheirData) {
  TIDE_REQUIRE_DEVICES(1);
  constexpr int kThreads = 4, kIters = 100;
  std::array<bool, kThreads> ok{};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &ok] {
      const int dev = t % cuda::device_count();
      cuda::StreamGuard guard{cuda::Stream(dev)};
      bool good = true;
      for (int i = 0; i < kIters && good; ++i) {
        const double v = t * 1000 + i;
        Tensor p = full({256 + 64 * (i % 5)}, v, kPinned);
        Tensor d = p.cuda(dev, /*non_blocking=*/true);
        p = Tensor();  // freed while its copy may be pending
        Tensor back = d.to(kCPU, /*non_blocking=*/true);
        cuda::current_stream(dev).synchronize();
        for (float x : back.tolist<float>()) good = good && x == static_cast<float>(v);
      }
      ok[t] = good;
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(ok[t]) << "thread " << t;
}

// --- statistics -------------------------------------------------------------------------

TEST(PinnedAllocator, HostMemoryStatsHaveTorchsKeys) {
  auto stats = cuda::host_memory_stats();
  for (const char* stat : {"allocation", "segment", "allocated_bytes", "reserved_bytes"}) {
    for (const char* field : {"current", "peak", "allocated", "freed"}) {
      EXPECT_TRUE(stats.count(std::string(stat) + "." + field)) << stat << "." << field;
    }
  }
  for (const char* key : {"num_host_alloc", "num_host_free"}) EXPECT_TRUE(stats.count(key)) << key;
  for (const char* stat : {"host_alloc_time", "host_free_time"}) {
    for (const char* field : {"total", "max", "min", "count", "avg"}) {
      EXPECT_TRUE(stats.count(std::string(stat) + "." + field)) << stat << "." << field;
    }
  }
}

TEST(PinnedAllocator, HostMemoryStatsCountBlocksSegmentsAndBytes) {
  TIDE_REQUIRE_DEVICES(1);
  quiesce_pinned_memory();
  const auto base = cuda::host_memory_stats();
  auto delta = [&](const std::string& key) { return host_stat(key) - base.at(key); };
  {
    Tensor a = empty({1000}, kPinned);  // 4000 bytes -> a 4096-byte block
    Tensor b = empty({3}, kPinned);     // 12 bytes -> 16
    EXPECT_EQ(delta("allocation.current"), 2);
    EXPECT_EQ(delta("allocated_bytes.current"), 4096 + 16);
    EXPECT_EQ(delta("segment.current"), 2);
    EXPECT_EQ(delta("reserved_bytes.current"), 4096 + 16);
    EXPECT_EQ(delta("num_host_alloc"), 2);
    EXPECT_EQ(delta("host_alloc_time.count"), 2);
  }
  // Freed: no longer allocated, still reserved (cached).
  EXPECT_EQ(delta("allocation.current"), 0);
  EXPECT_EQ(delta("allocation.freed"), 2);
  EXPECT_EQ(delta("allocated_bytes.current"), 0);
  EXPECT_EQ(delta("allocated_bytes.freed"), 4096 + 16);
  EXPECT_EQ(delta("segment.current"), 2);
  EXPECT_EQ(delta("reserved_bytes.current"), 4096 + 16);
  {
    Tensor c = empty({1024}, kPinned);  // served from the cache: no new host allocation
    EXPECT_EQ(delta("allocation.current"), 1);
    EXPECT_EQ(delta("allocation.allocated"), 3);
    EXPECT_EQ(delta("allocated_bytes.allocated"), 4096 + 16 + 4096);
    EXPECT_EQ(delta("num_host_alloc"), 2);
    EXPECT_EQ(delta("segment.allocated"), 2);
  }
  cuda::host_empty_cache();
  EXPECT_EQ(delta("segment.current"), 0);
  EXPECT_EQ(delta("reserved_bytes.current"), 0);
  EXPECT_EQ(delta("segment.freed"), 2);
  EXPECT_EQ(delta("reserved_bytes.freed"), 4096 + 16);
  EXPECT_EQ(delta("num_host_free"), 2);
  EXPECT_EQ(delta("host_free_time.count"), 2);
}

TEST(PinnedAllocator, PeakStatsFollowTheHighestFigureUntilReset) {
  TIDE_REQUIRE_DEVICES(1);
  quiesce_pinned_memory();
  cuda::reset_peak_host_memory_stats();
  const int64_t current = host_stat("allocated_bytes.current");
  EXPECT_EQ(host_stat("allocated_bytes.peak"), current);
  {
    Tensor a = empty({1 << 18}, kPinned);  // 1 MiB
    Tensor b = empty({1 << 18}, kPinned);
    EXPECT_EQ(host_stat("allocated_bytes.peak"), current + (2 << 20));
    EXPECT_EQ(host_stat("allocation.peak"), host_stat("allocation.current"));
  }
  EXPECT_EQ(host_stat("allocated_bytes.peak"), current + (2 << 20));
  EXPECT_EQ(host_stat("reserved_bytes.peak"), host_stat("reserved_bytes.current"));
  cuda::reset_peak_host_memory_stats();
  EXPECT_EQ(host_stat("allocated_bytes.peak"), current);
  cuda::reset_accumulated_host_memory_stats();
  EXPECT_EQ(host_stat("allocation.allocated"), 0);
  EXPECT_EQ(host_stat("allocation.freed"), 0);
  EXPECT_EQ(host_stat("host_alloc_time.count"), 0);
}

// --- host_empty_cache ---------------------------------------------------------------------

TEST(PinnedAllocator, HostEmptyCacheReleasesOnlyUnusedBlocks) {
  TIDE_REQUIRE_DEVICES(1);
  quiesce_pinned_memory();
  const int64_t reserved = host_stat("reserved_bytes.current");
  Tensor kept = full({1024}, 2.0, kPinned);
  { Tensor dropped = empty({2048}, kPinned); }
  EXPECT_EQ(host_stat("reserved_bytes.current"), reserved + 4096 + 8192);
  cuda::host_empty_cache();
  EXPECT_EQ(host_stat("reserved_bytes.current"), reserved + 4096) << "freed memory a tensor holds";
  EXPECT_EQ(kept.tolist<float>(), std::vector<float>(1024, 2.f));
  EXPECT_TRUE(kept.is_pinned());
}

TEST(PinnedAllocator, HostEmptyCacheKeepsBlocksWhoseCopiesArePending) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  quiesce_pinned_memory();
  const int64_t reserved = host_stat("reserved_bytes.current");
  cuda::Stream s(0);
  Allocator* pinned = memory::pinned_allocator();
  {
    StreamHold hold(s);
    runtime::launch(s, "pending_read", [] {});
    DataPtr block = pinned->allocate(8192);
    memory::record_pinned_use(block, s);
    block.reset();
    cuda::host_empty_cache();
    EXPECT_EQ(host_stat("reserved_bytes.current"), reserved + 8192)
        << "released a block a pending copy may still use";
  }
  s.synchronize();
  cuda::host_empty_cache();
  EXPECT_EQ(host_stat("reserved_bytes.current"), reserved);
}

// --- fault injection ----------------------------------------------------------------------

TEST(PinnedAllocator, InjectedOomFailsTheNthAllocationAndThenRecovers) {
  TIDE_REQUIRE_DEVICES(1);
  quiesce_pinned_memory();
  Tensor first;
  cuda::inject_pinned_oom_at(2);
  first = empty({1000}, kPinned);  // the 1st allocation from now succeeds
  try {
    empty({1000}, kPinned);
    FAIL() << "expected tide::OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_THAT(e.what(), HasSubstr("[pinned allocator] could not allocate 4.00 KiB of pinned"));
    EXPECT_THAT(e.what(), HasSubstr("requested 4000 bytes"));
    EXPECT_THAT(e.what(), HasSubstr("held by tensors: 4.00 KiB in 1 blocks"));
    EXPECT_THAT(e.what(), HasSubstr("injected by cuda::inject_pinned_oom_at"));
    EXPECT_THAT(e.what(), HasSubstr("cuda::host_empty_cache()"));
    EXPECT_THAT(e.what(), HasSubstr("pin smaller batches"));
  }
  // Recovery: the next allocation works, and the failed one left the figures untouched.
  Tensor third = empty({1000}, kPinned);
  EXPECT_TRUE(third.is_pinned());
  EXPECT_EQ(host_stat("allocation.current"), 2);
}

TEST(PinnedAllocator, InjectedOomReachesPinMemoryAndToCpuNonBlocking) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = ones({8});
  cuda::inject_pinned_oom_at(1);
  EXPECT_THROW(a.pin_memory(), OutOfMemoryError);
  EXPECT_TRUE(a.pin_memory().is_pinned());
  Tensor d = ones({8}, device("cuda:0"));
  cuda::inject_pinned_oom_at(1);
  EXPECT_THROW(d.to(kCPU, /*non_blocking=*/true), OutOfMemoryError);
  EXPECT_TRUE(d.to(kCPU, /*non_blocking=*/true).is_pinned());
  cuda::synchronize(0);
}

TEST(PinnedAllocator, InjectingZeroDisarms) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::inject_pinned_oom_at(1);
  cuda::inject_pinned_oom_at(0);
  EXPECT_NO_THROW(empty({4}, kPinned));
}

TEST(PinnedAllocator, PinnedInjectionDoesNotAffectOrdinaryMemory) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::inject_pinned_oom_at(1);
  EXPECT_NO_THROW(empty({4}));
  EXPECT_NO_THROW(empty({4}, device("cuda:0")));
  EXPECT_THROW(empty({4}, kPinned), OutOfMemoryError);
}

TEST(PinnedAllocator, InjectingANegativeCountRaises) {
  try {
    cuda::inject_pinned_oom_at(-1);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[cuda::inject_pinned_oom_at] expected n >= 0"));
    EXPECT_THAT(e.what(), HasSubstr("got -1"));
  }
}

// TIDE_FAULT_PINNED_OOM_AT is read at the first pinned allocation of a process, so these run
// the child tests below in a fresh process of this binary with the variable set.
namespace {

std::string run_child(const std::string& filter, const std::string& value) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "cannot find this test binary";
  self[n] = '\0';
  std::string cmd = "'" + std::string(self) + "' --gtest_filter=" + filter +
                    " --set-env=TIDE_FAULT_PINNED_OOM_AT=" + value + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::array<char, 4096> buf;
  while (fgets(buf.data(), buf.size(), pipe) != nullptr) out += buf.data();
  const int status = pclose(pipe);
  if (status != 0) out += "\nchild exit status " + std::to_string(status);
  return out;
}

bool env_is(const char* value) {
  const char* v = std::getenv("TIDE_FAULT_PINNED_OOM_AT");
  return v != nullptr && std::string(v) == value;
}

}  // namespace

TEST(PinnedFaultEnvChild, SecondAllocationFails) {
  if (!env_is("2")) GTEST_SKIP() << "run by PinnedFaultEnv.ArmsTheNthPinnedAllocation";
  Tensor first = empty({16}, kPinned);
  EXPECT_THROW(empty({16}, kPinned), OutOfMemoryError);
  EXPECT_NO_THROW(empty({16}, kPinned));
}

TEST(PinnedFaultEnvChild, BadValueRaises) {
  if (!env_is("two")) GTEST_SKIP() << "run by PinnedFaultEnv.BadValueIsAClearError";
  try {
    empty({16}, kPinned);
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("TIDE_FAULT_PINNED_OOM_AT must be a non-negative integer"));
    EXPECT_THAT(e.what(), HasSubstr("got 'two'"));
  }
}

TEST(PinnedFaultEnv, ArmsTheNthPinnedAllocation) {
  TIDE_REQUIRE_DEVICES(1);
  const std::string out = run_child("PinnedFaultEnvChild.SecondAllocationFails", "2");
  EXPECT_THAT(out, HasSubstr("[       OK ] PinnedFaultEnvChild.SecondAllocationFails")) << out;
  EXPECT_THAT(out, Not(HasSubstr("SKIPPED"))) << out;
}

TEST(PinnedFaultEnv, BadValueIsAClearError) {
  TIDE_REQUIRE_DEVICES(1);
  const std::string out = run_child("PinnedFaultEnvChild.BadValueRaises", "two");
  EXPECT_THAT(out, HasSubstr("[       OK ] PinnedFaultEnvChild.BadValueRaises")) << out;
  EXPECT_THAT(out, Not(HasSubstr("SKIPPED"))) << out;
}
