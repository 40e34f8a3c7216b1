// Async errors: recorded by a failing task, raised once at the next synchronizing call.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "device_test_util.h"
#include "runtime/error_channel.h"
#include "runtime/launch.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/scope.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

void fail_index_select() {
  runtime::record_kernel_error("index 5 is out of bounds for dimension 0 with size 3");
}

// Runs `sync`, expecting exactly the KernelError of the failing op; returns its message.
std::string expect_kernel_error(const std::function<void()>& sync) {
  try {
    sync();
  } catch (const KernelError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected tide::KernelError";
  return "";
}

}  // namespace

TEST(AsyncError, SurfacesOnceAtTheNextSynchronizeNamingOpSequenceStreamAndScope) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  TIDE_REQUIRE_ASYNC();
  cuda::Stream s(0);
  const uint64_t first = runtime::launch(s, "fill_", [] {});
  uint64_t seq;
  {
    Scope outer("model");
    Scope inner("forward");
    seq = runtime::launch(s, "index_select", fail_index_select);
  }
  EXPECT_EQ(seq, first + 1);
  const std::string msg = expect_kernel_error([&] { s.synchronize(); });
  EXPECT_THAT(msg, HasSubstr("'index_select'"));
  EXPECT_THAT(msg, HasSubstr("sequence number " + std::to_string(seq)));
  EXPECT_THAT(msg, HasSubstr("stream " + std::to_string(s.id()) + " of cuda:0"));
  EXPECT_THAT(msg, HasSubstr("scope 'forward'"));
  EXPECT_THAT(msg, HasSubstr("index 5 is out of bounds for dimension 0 with size 3"));
  EXPECT_THAT(msg, HasSubstr("CUDA_LAUNCH_BLOCKING=1"));
  // Raised once, then cleared; the device keeps working.
  EXPECT_NO_THROW(s.synchronize());
  EXPECT_NO_THROW(cuda::synchronize(0));
  std::atomic<bool> ran{false};
  runtime::launch(s, "after", [&] { ran = true; });
  s.synchronize();
  EXPECT_TRUE(ran.load());
}

TEST(AsyncError, TheTaskFinishesAfterRecordingItsError) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  cuda::Stream s(0);
  bool finished = false;
  auto run = [&] {
    runtime::launch(s, "nll_loss", [&] {
      runtime::record_kernel_error("Target 7 is out of bounds.");
      runtime::record_kernel_error("a second failure of the same task is dropped");
      finished = true;
    });
    s.synchronize();
  };
  const std::string msg = expect_kernel_error(run);
  EXPECT_TRUE(finished);
  EXPECT_THAT(msg, HasSubstr("Target 7 is out of bounds."));
  EXPECT_THAT(msg, Not(HasSubstr("second failure")));
  EXPECT_THAT(msg, HasSubstr("enqueued outside any tide::Scope"));
}

TEST(AsyncError, AnotherThreadsSynchronizeRaisesIt) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  TIDE_REQUIRE_ASYNC();
  cuda::Stream s(0);
  runtime::launch(s, "cross_entropy", [] { runtime::record_kernel_error("bad target"); });
  std::string msg;
  std::thread other([&] { msg = expect_kernel_error([] { cuda::synchronize(0); }); });
  other.join();
  EXPECT_THAT(msg, HasSubstr("'cross_entropy'"));
  EXPECT_NO_THROW(s.synchronize());
}

TEST(AsyncError, OnlyTheFirstFailureOfADeviceIsKept) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  TIDE_REQUIRE_ASYNC();
  cuda::Stream s(0);
  runtime::launch(s, "first_op", [] { runtime::record_kernel_error("first"); });
  runtime::launch(s, "second_op", [] { runtime::record_kernel_error("second"); });
  const std::string msg = expect_kernel_error([&] { s.synchronize(); });
  EXPECT_THAT(msg, HasSubstr("'first_op'"));
  EXPECT_NO_THROW(s.synchronize());
}

TEST(AsyncError, ATaskThatThrowsIsReportedAndTheStreamGoesOn) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  TIDE_REQUIRE_ASYNC();
  cuda::Stream s(0);
  std::atomic<bool> ran{false};
  const std::string msg = expect_kernel_error([&] {
    runtime::launch(s, "matmul", [] { throw Error("[matmul] shapes do not match"); });
    runtime::launch(s, "after", [&] { ran = true; });
    cuda::Event e = s.record_event();
    e.synchronize();
  });
  EXPECT_THAT(msg, HasSubstr("'matmul'"));
  EXPECT_THAT(msg, HasSubstr("[matmul] shapes do not match"));
  s.synchronize();
  EXPECT_TRUE(ran.load());
}

TEST(AsyncError, StaysOnItsDevice) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  TIDE_REQUIRE_ASYNC();
  cuda::Stream s1(1);
  runtime::launch(s1, "index_select", fail_index_select);
  s1.query();  // not a synchronizing call: raises nothing
  runtime::backend(kCUDA)->synchronize_stream(s1.native_handle());  // waits, raises nothing
  EXPECT_NO_THROW(cuda::synchronize(0));
  const std::string msg = expect_kernel_error([] { cuda::synchronize(1); });
  EXPECT_THAT(msg, HasSubstr("of cuda:1"));
}

TEST(AsyncError, UnderLaunchBlockingTheOpItselfRaises) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  if (!test::launch_blocking()) GTEST_SKIP() << "needs CUDA_LAUNCH_BLOCKING=1";
  cuda::Stream s(0);
  bool ran = false;
  runtime::launch(s, "fill_", [&] { ran = true; });
  EXPECT_TRUE(ran);  // complete before launch returned
  Scope scope("eval");
  const std::string msg =
      expect_kernel_error([&] { runtime::launch(s, "index_select", fail_index_select); });
  EXPECT_THAT(msg, HasSubstr("'index_select'"));
  EXPECT_THAT(msg, HasSubstr("scope 'eval'"));
  EXPECT_NO_THROW(s.synchronize());
}

TEST(AsyncError, OutsideATaskRecordingRaisesAtOnce) {
  try {
    runtime::record_kernel_error("index 9 is out of bounds");
    FAIL() << "expected tide::KernelError";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("index 9 is out of bounds"));
  }
}
