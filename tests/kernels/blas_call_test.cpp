// BlasCall (Note [Serial OpenBLAS is not reentrant]): when BLAS calls are serialized, cpu
// matrix products on two host threads never run inside BLAS at the same time, and they are
// serialized exactly when the linked OpenBLAS is a sequential build, unless a test says
// otherwise.

#include "kernels/cpu/blas_call.h"

#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "tide/tide.h"

using namespace tide;

namespace {

/// Gives BLAS calls back to the library's choice, without a hook, when a test ends.
struct RestoreBlasCalls {
  ~RestoreBlasCalls() {
    kernels::set_blas_call_hook_for_testing({});
    kernels::set_blas_calls_serialized_for_testing(std::nullopt);
  }
};

TEST(BlasCall, MatmulsOnTwoThreadsTakeTurnsInsideBlasWhenCallsAreSerialized) {
  RestoreBlasCalls restore;
  kernels::set_blas_calls_serialized_for_testing(true);
  manual_seed(0);
  // DataParallel's case: the same weights, two inputs (3 rows, 16 outputs, 6 inputs).
  const Tensor w = randn({16, 6});
  const Tensor x0 = randn({3, 6}), x1 = randn({3, 6});
  const std::vector<float> expected0 = matmul(x0, w.t()).tolist<float>();
  const std::vector<float> expected1 = matmul(x1, w.t()).tolist<float>();

  // The first call stays inside its BLAS scope until the second has either got inside too
  // (the calls overlap: the hook ran twice) or waits for its turn (they are serialized).
  std::mutex mutex;
  std::condition_variable cv;
  int calls = 0, inside = 0, most_inside = 0;
  bool first_may_leave = false;
  kernels::set_blas_call_hook_for_testing([&] {
    std::unique_lock<std::mutex> lock(mutex);
    const bool first = calls++ == 0;
    most_inside = std::max(most_inside, ++inside);
    cv.notify_all();
    if (first) cv.wait(lock, [&] { return first_may_leave; });
    --inside;
  });
  std::vector<float> out0, out1;
  std::thread first([&] { out0 = matmul(x0, w.t()).tolist<float>(); });
  bool first_inside;
  {
    std::unique_lock<std::mutex> lock(mutex);
    first_inside = cv.wait_for(lock, std::chrono::minutes(1), [&] { return calls == 1; });
  }
  if (!first_inside) {
    first.join();
    FAIL() << "the matmul ran BLAS outside a BlasCall";
  }
  std::thread second([&] { out1 = matmul(x1, w.t()).tolist<float>(); });
  // Nothing signals "waits for its turn", so this polls; the minute is only a bound that turns
  // a hang into a failure, both outcomes come at once.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  bool second_arrived = false;
  while (!second_arrived && std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      second_arrived = calls == 2 || kernels::blas_calls_waiting_for_testing() == 1;
    }
    if (!second_arrived) std::this_thread::yield();
  }
  EXPECT_TRUE(second_arrived) << "the second matmul never reached BLAS";
  {
    std::lock_guard<std::mutex> lock(mutex);
    first_may_leave = true;
  }
  cv.notify_all();
  first.join();
  second.join();

  EXPECT_EQ(calls, 2);
  EXPECT_EQ(most_inside, 1) << "two matmuls ran inside BLAS at once";
  EXPECT_EQ(out0, expected0);
  EXPECT_EQ(out1, expected1);
}

TEST(BlasCall, CallsAreSerializedWhenTheLinkedOpenBlasIsSequentialUnlessATestSaysOtherwise) {
  RestoreBlasCalls restore;
  const bool sequential = openblas_get_parallel() == 0;
  EXPECT_EQ(kernels::blas_calls_serialized(), sequential);
  kernels::set_blas_calls_serialized_for_testing(true);
  EXPECT_TRUE(kernels::blas_calls_serialized());
  kernels::set_blas_calls_serialized_for_testing(false);
  EXPECT_FALSE(kernels::blas_calls_serialized());
  kernels::set_blas_calls_serialized_for_testing(std::nullopt);
  EXPECT_EQ(kernels::blas_calls_serialized(), sequential);
}

}  // namespace
