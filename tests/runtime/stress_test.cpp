// Many host threads x devices x streams x tasks at once; run under the tsan preset.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "device_test_util.h"
#include "runtime/error_channel.h"
#include "runtime/launch.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/scope.h"

using namespace tide;

TEST(RuntimeStress, ThreadsDevicesStreamsAndTasksStayOrderedAndIsolated) {
  TIDE_REQUIRE_DEVICES(1);
  constexpr int kThreads = 6, kStreamsPerThread = 3, kTasks = 200;
  const int devices = cuda::device_count();
  // Per (thread, device): a buffer written by a producer stream and summed by a consumer
  // stream ordered after it by an event. Plain ints: only stream ordering protects them,
  // so tsan checks that the runtime's synchronization really orders the work.
  struct Lane {
    std::vector<int> produced = std::vector<int>(kTasks, 0);
    long sum = 0;
    int counter = 0;  // incremented by every task of one stream, without atomics
  };
  std::vector<std::vector<Lane>> lanes(kThreads, std::vector<Lane>(static_cast<size_t>(devices)));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Scope scope("stress");
      for (int d = 0; d < devices; ++d) {
        cuda::DeviceGuard guard((t + d) % devices);
        Lane& lane = lanes[t][static_cast<size_t>(d)];
        std::vector<cuda::Stream> streams;
        for (int k = 0; k < kStreamsPerThread; ++k) streams.emplace_back(d, k % 2 ? -1 : 0);
        cuda::Stream producer = cuda::Stream(d), consumer = cuda::Stream(d, -1);
        cuda::StreamGuard stream_guard(producer);
        if (cuda::current_stream(d) != producer) ++failures;
        for (int i = 0; i < kTasks; ++i) {
          runtime::launch(producer, "produce", [&lane, i] { lane.produced[i] = i + 1; });
          // Other streams run unrelated work concurrently (pooled streams may be shared with
          // other threads: their tasks only touch atomics).
          runtime::launch(streams[static_cast<size_t>(i % kStreamsPerThread)], "noise",
                          [&failures] { failures.fetch_add(0); });
        }
        cuda::Event e = producer.record_event();
        consumer.wait_event(e);
        runtime::launch(consumer, "sum", [&lane] {
          for (int v : lane.produced) lane.sum += v;
        });
        cuda::Stream counting = cuda::default_stream(d);
        for (int i = 0; i < kTasks; ++i) {
          runtime::launch(producer, "count", [&lane] { ++lane.counter; });
        }
        consumer.synchronize();
        producer.synchronize();
        if (cuda::current_device() != d) ++failures;  // the StreamGuard's device
        counting.query();
        for (auto& s : streams) s.synchronize();
      }
      if (cuda::current_device() != 0) ++failures;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  const long expected_sum = static_cast<long>(kTasks) * (kTasks + 1) / 2;
  for (auto& per_thread : lanes) {
    for (auto& lane : per_thread) {
      EXPECT_EQ(lane.sum, expected_sum);
      EXPECT_EQ(lane.counter, kTasks);
    }
  }
  for (int d = 0; d < devices; ++d) EXPECT_NO_THROW(cuda::synchronize(d));
}

TEST(RuntimeStress, ErrorsFromManyThreadsSurfaceOncePerDevice) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  TIDE_REQUIRE_ASYNC();  // there, each launch raises its own error in its own thread
  const int devices = cuda::device_count();
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, devices] {
      for (int d = 0; d < devices; ++d) {
        cuda::Stream s(d);
        runtime::launch(s, "index_select",
                        [t] { runtime::record_kernel_error("failure " + std::to_string(t)); });
      }
    });
  }
  for (auto& th : threads) th.join();
  std::atomic<int> raised{0};
  std::vector<std::thread> syncers;
  for (int t = 0; t < kThreads; ++t) {
    syncers.emplace_back([&, devices] {
      for (int d = 0; d < devices; ++d) {
        try {
          cuda::synchronize(d);
        } catch (const KernelError&) {
          ++raised;
        }
      }
    });
  }
  for (auto& th : syncers) th.join();
  EXPECT_EQ(raised.load(), devices);
}
