// The simulated backend on its own, outside the process-wide registry.

#include "backends/sim/sim_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

#include "tide/error.h"

using namespace tide;
using ::testing::HasSubstr;

namespace {
sim::SimConfig small_config() {
  sim::SimConfig c;
  c.physical_devices = 4;
  c.visible = {2, 0};
  c.capacity = 1 << 20;
  return c;
}
}  // namespace

TEST(SimBackend, PresentsTheVisibleDevicesInOrder) {
  sim::SimBackend b(small_config());
  EXPECT_EQ(b.device_count(), 2);
  EXPECT_EQ(b.properties(0).name, "tide simulated GPU (physical 2)");
  EXPECT_EQ(b.properties(1).name, "tide simulated GPU (physical 0)");
  EXPECT_EQ(b.properties(1).total_memory, 1 << 20);
  EXPECT_TRUE(b.properties(0).simulated);
}

TEST(SimBackend, AccountsMemoryAgainstTheCapacity) {
  sim::SimBackend b(small_config());
  void* p = b.malloc(0, 1 << 19);
  EXPECT_EQ(b.memory_in_use(0), 1 << 19);
  EXPECT_EQ(b.memory_in_use(1), 0);
  try {
    b.malloc(0, (1 << 19) + 1);
    FAIL() << "expected tide::OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Tried to allocate 512.00 KiB"));
    EXPECT_THAT(e.what(), HasSubstr("GPU 0 (simulated, physical 2)"));
    EXPECT_THAT(e.what(), HasSubstr("total capacity of 1.00 MiB of which 512.00 KiB is free"));
  }
  b.free(0, p, 1 << 19);
  EXPECT_EQ(b.memory_in_use(0), 0);
}

TEST(SimBackend, RunsHeldWorkOnlyAfterRelease) {
  sim::SimBackend b(small_config());
  runtime::StreamHandle s = b.create_stream(1, 0, 1);
  std::atomic<int> ran{0};
  sim::SimBackend::hold(s);
  const uint64_t seq = b.launch(s, {"op", nullptr}, [&] { ++ran; });
  EXPECT_EQ(seq, 1u);
  EXPECT_FALSE(b.query_stream(s));
  sim::SimBackend::release(s);
  b.synchronize_device(1);
  EXPECT_EQ(ran.load(), 1);
  EXPECT_TRUE(b.query_stream(s));
}

TEST(SimBackend, StopsItsWorkersWhenDestroyed) {
  std::atomic<int> ran{0};
  {
    sim::SimBackend b(small_config());
    for (int i = 0; i < 10; ++i) b.launch(b.default_stream(0), {"op", nullptr}, [&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 10);  // queued work that could run finished before the join
}
