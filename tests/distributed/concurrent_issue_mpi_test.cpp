// Collectives issued by two host threads of each rank at once (Note [Issuing a collective] in
// src/distributed/mpi/mpi_backend.cpp): each rank numbers, queues and stream-orders its calls
// in one order, so the ranks' arrival rounds agree however the threads interleave.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distributed/dist_helpers.h"
#include "distributed/issue_hook.h"
#include "tide/cuda/stream_guard.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::ReduceOp;

class ConcurrentIssue : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { TIDE_SKIP_WITHOUT(GetParam()); }
};

/// What one thread saw: the results that were wrong and the errors raised.
struct ThreadReport {
  std::vector<std::string> problems;
};

// Every call of both threads on every rank is an all_reduce(SUM) of 16 float32 elements, so
// whichever of the other rank's calls a call is paired with (the threads interleave
// differently on each rank), the two agree; every rank's values are rank + 1, so every result
// is w (w + 1) / 2 under any pairing. What can fail is the numbering: a rank whose sequence
// numbers, queue order or stream order disagreed would pair its collective #k with another
// rank's #k+1, and the arrival round raises on that (the headers carry the numbers). Half the
// calls are asynchronous, waited for in a batch, so that several are in flight at once.
void issue_all_reduces(Device device, int calls, ThreadReport& report) {
  std::unique_ptr<cuda::StreamGuard> own_stream;
  if (device.is_cuda()) own_stream = std::make_unique<cuda::StreamGuard>(cuda::Stream(device.index()));
  const int w = distributed::get_world_size();
  const float want = static_cast<float>(w * (w + 1) / 2);
  std::vector<Tensor> pending;
  std::vector<std::shared_ptr<distributed::Work>> works;
  try {
    for (int i = 0; i < calls; ++i) {
      Tensor t = full({16}, distributed::get_rank() + 1.0, TensorOptions().device(device));
      if (i % 2 == 0) {
        distributed::all_reduce(t, ReduceOp::SUM);
        pending.push_back(t);
      } else {
        works.push_back(distributed::all_reduce(t, ReduceOp::SUM, /*async_op=*/true));
        pending.push_back(t);
      }
      if (works.size() == 8 || i + 1 == calls) {
        for (auto& work : works) work->wait();
        works.clear();
        for (const Tensor& done : pending) {
          if (done.cpu().tolist<float>() != std::vector<float>(16, want)) {
            report.problems.push_back("call " + std::to_string(i) + " gave a wrong sum");
          }
        }
        pending.clear();
      }
    }
  } catch (const std::exception& e) {
    report.problems.push_back(e.what());
  }
}

TEST_P(ConcurrentIssue, TwoThreadsIssuingAtOnceEveryCallPairsWithTheOtherRanks) {
  const Device device = test::rank_device(GetParam());
  constexpr int kCalls = 1000;
  ThreadReport first, second;
  // Both threads start together, so their calls overlap from the first one on.
  std::atomic<int> arrived{0};
  auto run = [&](ThreadReport& report) {
    arrived.fetch_add(1);
    while (arrived.load() < 2) std::this_thread::yield();
    issue_all_reduces(device, kCalls, report);
  };
  std::thread a(run, std::ref(first));
  std::thread b(run, std::ref(second));
  a.join();
  b.join();
  EXPECT_EQ(first.problems, std::vector<std::string>());
  EXPECT_EQ(second.problems, std::vector<std::string>());
  // The group is still in step: a collective from the main thread pairs with the others'.
  Tensor after = ones({3}, TensorOptions().device(device));
  distributed::all_reduce(after);
  EXPECT_EQ(after.cpu().tolist<float>(),
            std::vector<float>(3, static_cast<float>(distributed::get_world_size())));
}

/// One synchronous all_reduce(SUM) of 8 elements on `device`; what went wrong, if anything.
std::string all_reduce_once(Device device) {
  try {
    Tensor t = full({8}, distributed::get_rank() + 1.0, TensorOptions().device(device));
    distributed::all_reduce(t, ReduceOp::SUM);
    const int w = distributed::get_world_size();
    if (t.cpu().tolist<float>() != std::vector<float>(8, static_cast<float>(w * (w + 1) / 2))) {
      return "wrong sum";
    }
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

// Deterministic: rank 0 holds thread A inside the issue critical section (the issue hook, after
// A's call got number #k) while thread B issues; the other ranks make the same two calls one
// after the other. B must get neither a number nor a place in the queue before A's call is
// queued: otherwise rank 0 would run #k+1 first and its peers #k, and the arrival round would
// raise on every rank. How long A is held decides only how surely a broken lock is caught: a
// correct one passes however short the hold.
TEST_P(ConcurrentIssue, AThreadHeldInsideTheIssueKeepsTheOtherThreadsCallBehindIt) {
  const Device device = test::rank_device(GetParam());
  std::string first, second;
  if (distributed::get_rank() == 0) {
    std::mutex mutex;
    std::condition_variable cv;
    bool entered = false, released = false;
    std::atomic<bool> hold_next{true};
    distributed::detail::set_issue_hook_for_testing([&](int64_t) {
      if (!hold_next.exchange(false)) return;  // only A's call: B starts once A is held
      std::unique_lock<std::mutex> lock(mutex);
      entered = true;
      cv.notify_all();
      cv.wait(lock, [&] { return released; });
    });
    std::thread a([&] { first = all_reduce_once(device); });
    {
      std::unique_lock<std::mutex> lock(mutex);
      cv.wait(lock, [&] { return entered; });
    }
    std::thread b([&] { second = all_reduce_once(device); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // B reaches the lock
    {
      std::lock_guard<std::mutex> lock(mutex);
      released = true;
    }
    cv.notify_all();
    a.join();
    b.join();
    distributed::detail::set_issue_hook_for_testing({});
  } else {
    first = all_reduce_once(device);
    second = all_reduce_once(device);
  }
  EXPECT_EQ(first, "");
  EXPECT_EQ(second, "");
}

INSTANTIATE_TEST_SUITE_P(Devices, ConcurrentIssue, ::testing::Values("cpu", "cuda"),
                         test::device_name);

}  // namespace
}  // namespace tide
