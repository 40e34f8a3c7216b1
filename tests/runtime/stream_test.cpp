// Streams: pooling, current streams, guards, and asynchrony proven with held workers.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "device_test_util.h"
#include "runtime/launch.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using ::testing::HasSubstr;
using tide::testing::StreamHold;

TEST(Stream, TheDefaultStreamIsCurrentUntilChanged) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::Stream s = cuda::current_stream();
  EXPECT_EQ(s, cuda::default_stream());
  EXPECT_TRUE(s.is_default());
  EXPECT_EQ(s.id(), 0u);
  EXPECT_EQ(s.device(), Device("cuda:0"));
}

TEST(Stream, ThePoolHandsOut32StreamsRoundRobinPerPriority) {
  TIDE_REQUIRE_DEVICES(1);
  std::set<uint64_t> normal, high;
  for (int i = 0; i < 32; ++i) {
    normal.insert(cuda::Stream(0).id());
    high.insert(cuda::Stream(0, -1).id());
  }
  EXPECT_EQ(normal.size(), 32u);
  EXPECT_EQ(high.size(), 32u);
  EXPECT_EQ(*normal.begin(), 1u);
  EXPECT_EQ(*high.begin(), 33u);
  // The 33rd hand-out reuses a stream: the same stream compares equal.
  cuda::Stream a(0), b = a;
  for (int i = 0; i < 31; ++i) cuda::Stream skip(0);
  EXPECT_EQ(cuda::Stream(0), a);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.priority(), 0);
  EXPECT_EQ(cuda::Stream(0, -5).priority(), -1);  // clamped as torch
  EXPECT_EQ(cuda::Stream(0, 3).priority(), 0);
  EXPECT_NE(a, cuda::default_stream(0));
}

TEST(Stream, IsPrintableAndHashable) {
  TIDE_REQUIRE_DEVICES(1);
  std::ostringstream os;
  os << cuda::default_stream(0);
  EXPECT_EQ(os.str(), "Stream(device=cuda:0, id=0, priority=0)");
  std::unordered_set<cuda::Stream> set{cuda::default_stream(0), cuda::default_stream(0)};
  EXPECT_EQ(set.size(), 1u);
}

// Note [A stream's cudaStream_t]: on a real GPU the default stream is CUDA's legacy default
// stream (0) and a pooled stream is a cudaStream_t of its own, none of CUDA's special values.
TEST(Stream, CudaStreamIsTheCudaStreamOnARealGpu) {
  TIDE_REQUIRE_DEVICES(1);
  if (!test::real_gpu()) GTEST_SKIP() << "needs a real GPU (simulated streams raise: below)";
  EXPECT_EQ(cuda::default_stream(0).cuda_stream(), 0u);
  const cuda::Stream a(0), b(0);
  EXPECT_GT(a.cuda_stream(), 2u);  // neither 0 nor CUDA's legacy (1) / per-thread (2) default
  EXPECT_NE(a.cuda_stream(), b.cuda_stream());
  EXPECT_EQ(cuda::Stream(a).cuda_stream(), a.cuda_stream());
}

TEST(Stream, CudaStreamRaisesOnASimulatedGpu) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED("a simulated stream has no cudaStream_t");
  for (const cuda::Stream& s : {cuda::default_stream(0), cuda::Stream(0)}) {
    try {
      (void)s.cuda_stream();
      ADD_FAILURE() << "cuda_stream() of a simulated stream returned";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("[Stream::cuda_stream] expected a stream of a real GPU"));
      EXPECT_THAT(e.what(), HasSubstr("has no cudaStream_t"));
    }
  }
}

TEST(Stream, SetStreamChangesOnlyItsDeviceAndThread) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard g(0);
  cuda::Stream s1(1);
  cuda::set_stream(s1);
  EXPECT_EQ(cuda::current_device(), 0);
  EXPECT_EQ(cuda::current_stream(1), s1);
  EXPECT_EQ(cuda::current_stream(0), cuda::default_stream(0));
  cuda::Stream seen = cuda::default_stream(0);
  std::thread t([&] { seen = cuda::current_stream(1); });
  t.join();
  EXPECT_EQ(seen, cuda::default_stream(1));
  cuda::set_stream(cuda::default_stream(1));
}

TEST(StreamGuard, SetsDeviceAndStreamAndRestoresBoth) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::set_device(0);
  cuda::Stream s1(1), before1 = cuda::current_stream(1);
  {
    cuda::StreamGuard g(s1);
    EXPECT_EQ(cuda::current_device(), 1);
    EXPECT_EQ(cuda::current_stream(), s1);
    EXPECT_EQ(g.original_device(), 0);
  }
  EXPECT_EQ(cuda::current_device(), 0);
  EXPECT_EQ(cuda::current_stream(1), before1);
}

TEST(Stream, LaunchReturnsBeforeTheTaskRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  cuda::Stream s(0);
  std::atomic<bool> ran{false};
  {
    StreamHold hold(s);
    runtime::launch(s, "set_flag", [&] { ran = true; });
    EXPECT_FALSE(ran.load());
    EXPECT_FALSE(s.query());
  }
  s.synchronize();
  EXPECT_TRUE(ran.load());
  EXPECT_TRUE(s.query());
}

TEST(Stream, TasksOnOneStreamRunInOrder) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::Stream s(0);
  std::vector<int> order;  // written only by s's worker
  for (int i = 0; i < 100; ++i) runtime::launch(s, "append", [&order, i] { order.push_back(i); });
  s.synchronize();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
}

TEST(Stream, TwoStreamsRunConcurrently) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(
      "host tasks on simulated stream workers run concurrently; on a real GPU a host task runs "
      "inline at launch");
  TIDE_REQUIRE_ASYNC();
  // The task on A can finish only once the task on B has run: serial execution would hang.
  cuda::Stream a(0), b(0);
  ASSERT_NE(a, b);
  std::promise<void> b_ran;
  std::shared_future<void> b_done = b_ran.get_future().share();
  std::atomic<bool> a_saw_b{false};
  runtime::launch(a, "wait_for_b", [&] {
    a_saw_b = b_done.wait_for(std::chrono::minutes(2)) == std::future_status::ready;
  });
  runtime::launch(b, "signal", [&] { b_ran.set_value(); });
  a.synchronize();
  b.synchronize();
  EXPECT_TRUE(a_saw_b.load());
}

TEST(Stream, WithoutWaitStreamASideStreamReadsUnfinishedData) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  // The seeds' incorrect example: the producer is held, the consumer is not ordered after it.
  cuda::Stream producer = cuda::default_stream(0), consumer(0);
  int data = 0, seen = -1;
  {
    StreamHold hold(producer);
    runtime::launch(producer, "normal_", [&] { data = 1; });
    runtime::launch(consumer, "sum", [&] { seen = data; });
    consumer.synchronize();
    EXPECT_EQ(seen, 0);  // read before the producer ran
  }
  producer.synchronize();
  EXPECT_EQ(data, 1);
}

TEST(Stream, WaitStreamOrdersWorkAcrossStreams) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();  // a launch on a held stream would never return
  cuda::Stream producer = cuda::default_stream(0), consumer(0);
  int data = 0, seen = -1;
  {
    StreamHold hold(producer);
    runtime::launch(producer, "normal_", [&] { data = 1; });
    consumer.wait_stream(producer);
    runtime::launch(consumer, "sum", [&] { seen = data; });
    EXPECT_FALSE(consumer.query());  // waits for the held producer
  }
  consumer.synchronize();
  EXPECT_EQ(seen, 1);
}

TEST(Stream, WaitEventOrdersWorkAcrossDevices) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();  // a launch on a held stream would never return
  cuda::Stream producer(0), consumer(1);
  int data = 0, seen = -1;
  {
    StreamHold hold(producer);
    runtime::launch(producer, "fill_", [&] { data = 7; });
    cuda::Event e = producer.record_event();
    EXPECT_FALSE(e.query());
    consumer.wait_event(e);
    runtime::launch(consumer, "read", [&] { seen = data; });
  }
  consumer.synchronize();
  EXPECT_EQ(seen, 7);
}

TEST(Stream, SynchronizeReturnsOnlyAfterTheWorkHasRun) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();  // a launch on a held stream would never return
  cuda::Stream s(0);
  std::atomic<int> data{0};
  int seen_after_sync = -1;
  std::thread waiter;
  {
    StreamHold hold(s);
    runtime::launch(s, "write", [&] { data = 5; });
    waiter = std::thread([&] {
      s.synchronize();
      seen_after_sync = data.load();
    });
  }
  waiter.join();
  EXPECT_EQ(seen_after_sync, 5);
}

TEST(Stream, DeviceSynchronizeWaitsForEveryStreamOfTheDevice) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();  // a launch on a held stream would never return
  cuda::Stream a(0), b(0, -1);
  std::atomic<int> done{0};
  std::thread waiter;
  int seen = -1;
  {
    StreamHold hold_a(a), hold_b(b);
    runtime::launch(a, "one", [&] { ++done; });
    runtime::launch(b, "two", [&] { ++done; });
    waiter = std::thread([&] {
      cuda::synchronize(0);
      seen = done.load();
    });
  }
  waiter.join();
  EXPECT_EQ(seen, 2);
}

TEST(Stream, MemcpyAsyncRunsInStreamOrder) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::Stream s(0);
  void* dev = runtime::device_malloc(0, 4 * sizeof(float));
  std::vector<float> src{1, 2, 3, 4}, dst(4, 0);
  runtime::memcpy_async(dev, src.data(), 16, s);
  runtime::memcpy_async(dst.data(), dev, 16, s);
  s.synchronize();
  EXPECT_EQ(dst, src);
  runtime::device_free(0, dev, 16);
}

TEST(Stream, DevicesAreSimulatedExactlyWhenTheyExist) {
  TIDE_REQUIRE_SIMULATED("it asserts that every device is simulated");
  EXPECT_EQ(tide::testing::sim_active(), cuda::device_count() > 0);
}
