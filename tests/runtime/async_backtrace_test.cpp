// TIDE_ASYNC_BACKTRACE: a KernelError shows, symbolized, the native backtrace of where its op
// was enqueued (Note [Async error backtraces]).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "device_test_util.h"
#include "runtime/backtrace.h"
#include "runtime/error_channel.h"
#include "runtime/launch.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/testing/sim_hooks.h"
#include "support/kernel_error_of.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

using test::kernel_error_of;

// Turns capture on or off for one test, then back to what the process had.
class CaptureFor {
 public:
  explicit CaptureFor(bool enabled) {
    runtime::backend(kCUDA);  // the variable is read here, at first use
    previous_ = runtime::async_backtrace_enabled();
    tide::testing::set_async_backtrace_for_testing(enabled);
  }
  ~CaptureFor() { tide::testing::set_async_backtrace_for_testing(previous_); }
  CaptureFor(const CaptureFor&) = delete;
  CaptureFor& operator=(const CaptureFor&) = delete;

 private:
  bool previous_ = false;
};

// Out-of-line and not a tail call, so each of these is a frame of its own in the enqueue
// backtrace, found by its name.
[[gnu::noinline]] void enqueue_out_of_range_index_select_from_helper(const Tensor& x,
                                                                     const Tensor& index) {
  Tensor y = index_select(x, 0, index);
  asm volatile("" ::: "memory");
}

[[gnu::noinline]] uint64_t launch_failing_task_from_helper(const cuda::Stream& s) {
  const uint64_t seq = runtime::launch(s, "nll_loss", [] {
    runtime::record_kernel_error("Target 7 is out of bounds.");
  });
  asm volatile("" ::: "memory");
  return seq;
}

[[gnu::noinline]] runtime::RawBacktrace capture_from_named_helper() {
  runtime::RawBacktrace bt = runtime::capture_backtrace();
  asm volatile("" ::: "memory");
  return bt;
}

}  // namespace

TEST(AsyncBacktrace, IsReadFromTheEnvironmentAtFirstUse) {
  runtime::backend(kCUDA);
  EXPECT_EQ(runtime::async_backtrace_enabled(), test::env_is("TIDE_ASYNC_BACKTRACE", "1"));
}

TEST(AsyncBacktrace, SymbolizesTheCallersFramesByFunctionName) {
  const runtime::RawBacktrace bt = capture_from_named_helper();
  ASSERT_GT(bt.size, 1);
  if (!runtime::backtrace_symbolization_available()) {
    GTEST_SKIP() << "libdw cannot read this process's symbol tables (stripped binaries?)";
  }
  const std::string text = runtime::symbolize_backtrace(bt);
  EXPECT_THAT(text, ::testing::StartsWith("    #0 "));
  EXPECT_THAT(text, HasSubstr("capture_from_named_helper()"));
  EXPECT_THAT(text, HasSubstr("AsyncBacktrace_SymbolizesTheCallersFramesByFunctionName"));
  EXPECT_THAT(text, HasSubstr("tide_runtime_tests"));  // the module, after each frame
  EXPECT_THAT(text, Not(HasSubstr("__libc_start_main")));  // stops at main
  EXPECT_EQ(runtime::symbolize_backtrace(runtime::RawBacktrace{}), "");
}

TEST(AsyncBacktrace, AKernelErrorNamesTheFunctionThatEnqueuedTheFailingOp) {
  TIDE_REQUIRE_DEVICES(1);
  CaptureFor on(true);
  const Tensor x = tensor({1.0f, 2.0f, 3.0f}, TensorOptions(Device(kCUDA, 0)));
  const Tensor index = tensor({0, 5}, TensorOptions(Device(kCUDA, 0)).dtype(kInt64));
  const std::string msg = kernel_error_of([&] {
    enqueue_out_of_range_index_select_from_helper(x, index);
    cuda::synchronize(0);
  });
  EXPECT_THAT(msg, HasSubstr("'index_select'"));
  EXPECT_THAT(msg, HasSubstr("out of"));
  EXPECT_THAT(msg, HasSubstr("\nenqueued at:\n    #0 "));
  EXPECT_THAT(msg, Not(HasSubstr("Set TIDE_ASYNC_BACKTRACE=1")));
  if (!runtime::backtrace_symbolization_available()) {
    GTEST_SKIP() << "libdw cannot read this process's symbol tables, so frames are addresses";
  }
  // Simulated GPUs enqueue through runtime::launch; a real GPU's trace starts at run_kernel.
  if (!test::real_gpu()) {
    EXPECT_THAT(msg, HasSubstr("tide::runtime::launch("));
  }
  EXPECT_THAT(msg, HasSubstr("tide::index_select("));
  EXPECT_THAT(msg, HasSubstr("enqueue_out_of_range_index_select_from_helper("));
  EXPECT_THAT(msg,
              HasSubstr("AsyncBacktrace_AKernelErrorNamesTheFunctionThatEnqueuedTheFailingOp"));
  // The device stays usable, and the next error has no stale backtrace.
  EXPECT_NO_THROW(cuda::synchronize(0));
}

TEST(AsyncBacktrace, TheBacktraceTravelsWithTheTaskAndIsAttachedWhenItRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  CaptureFor on(true);
  cuda::Stream s(0);
  bool attached = false;
  runtime::launch(s, "probe", [&] {
    const runtime::ExecutingTask* task = runtime::executing_task();
    attached = task != nullptr && task->enqueued_at != nullptr && task->enqueued_at->size > 0;
  });
  s.synchronize();
  EXPECT_TRUE(attached);
  const std::string msg = kernel_error_of([&] {
    launch_failing_task_from_helper(s);
    s.synchronize();
  });
  EXPECT_THAT(msg, HasSubstr("'nll_loss'"));
  EXPECT_THAT(msg, HasSubstr("Target 7 is out of bounds."));
  EXPECT_THAT(msg, HasSubstr("\nenqueued at:\n"));
  if (runtime::backtrace_symbolization_available()) {
    EXPECT_THAT(msg, HasSubstr("launch_failing_task_from_helper("));
  }
}

TEST(AsyncBacktrace, WhenOffNothingIsCapturedAndTheMessageSaysHowToTurnItOn) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  CaptureFor off(false);
  cuda::Stream s(0);
  bool attached = true;
  runtime::launch(s, "probe",
                  [&] { attached = runtime::executing_task()->enqueued_at != nullptr; });
  s.synchronize();
  EXPECT_FALSE(attached);
  const std::string msg = kernel_error_of([&] {
    launch_failing_task_from_helper(s);
    s.synchronize();
  });
  EXPECT_THAT(msg, HasSubstr("'nll_loss'"));
  EXPECT_THAT(msg, Not(HasSubstr("enqueued at:")));
  EXPECT_THAT(msg, HasSubstr("Set TIDE_ASYNC_BACKTRACE=1 to see the native backtrace"));
}

TEST(AsyncBacktrace, TheVariableAloneTurnsCaptureOn) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(test::kFailingHostTasks);
  if (!test::env_is("TIDE_ASYNC_BACKTRACE", "1")) {
    GTEST_SKIP() << "runs in the configuration with TIDE_ASYNC_BACKTRACE=1";
  }
  cuda::Stream s(0);
  const std::string msg = kernel_error_of([&] {
    launch_failing_task_from_helper(s);
    s.synchronize();
  });
  EXPECT_THAT(msg, HasSubstr("\nenqueued at:\n    #0 "));
  if (runtime::backtrace_symbolization_available()) {
    EXPECT_THAT(msg, HasSubstr("launch_failing_task_from_helper("));
  }
}
