// Async errors through ops: a cuda op that meets bad input while it executes (an index out of
// range) records the failure; the op call has already returned, and the next synchronizing
// call on that device, from any thread, raises tide::KernelError once, naming the op, its
// sequence number, its stream and the innermost tide::Scope. The device keeps working.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "device_helpers.h"
#include "runtime/launch.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/scope.h"
#include "support/kernel_error_of.h"

using namespace tide;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const Device kCuda0("cuda:0");

/// A failing op enqueued on cuda:0's current stream, with the sequence numbers of two empty
/// tasks launched on the same stream right before and right after it.
struct Provoked {
  uint64_t before = 0, after = 0;
  Tensor result;
};

uint64_t marker() {
  return runtime::launch(cuda::current_stream(0), "marker", [] {});
}

Provoked bad_index_select() {
  const Tensor x = ones({3, 4}, TensorOptions(kCuda0));
  const Tensor idx = tensor({0, 5, 1}, TensorOptions(kCuda0));
  Provoked p;
  p.before = marker();
  {
    Scope outer("model");
    Scope inner("forward");
    p.result = x.index_select(0, idx);  // returns: the bad index is found while executing
  }
  p.after = marker();
  return p;
}

using test::kernel_error_of;

/// Checks the provenance in a KernelError message: op, sequence number between the markers,
/// the stream, the scope.
void expect_provenance(const std::string& msg, const char* op, const Provoked& p,
                       const char* scope) {
  EXPECT_THAT(msg, HasSubstr(std::string("kernel error in op '") + op + "'"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      msg, m, std::regex("sequence number (\\d+) on stream (\\d+) of cuda:(\\d+)")))
      << msg;
  const uint64_t seq = std::stoull(m[1]);
  EXPECT_GT(seq, p.before);
  EXPECT_LT(seq, p.after);
  EXPECT_EQ(std::stoull(m[2]), cuda::current_stream(0).id());
  EXPECT_EQ(m[3], "0");
  if (scope) {
    EXPECT_THAT(msg, HasSubstr(std::string("enqueued in scope '") + scope + "'"));
  } else {
    EXPECT_THAT(msg, HasSubstr("enqueued outside any tide::Scope"));
  }
}

/// Every way of synchronizing with cuda:0 that must raise the pending error.
struct SyncKind {
  const char* name;
  std::function<void(const Tensor& result)> sync;
};

std::vector<SyncKind> sync_kinds() {
  return {
      {"item()", [](const Tensor& r) { (void)r.sum().item<float>(); }},
      {"tolist()", [](const Tensor& r) { (void)r.tolist<float>(); }},
      {"printing", [](const Tensor& r) { (void)r.str(); }},
      {"copy to cpu", [](const Tensor& r) { (void)r.cpu(); }},
      {"cuda::synchronize()", [](const Tensor&) { cuda::synchronize(0); }},
      {"current stream synchronize()",
       [](const Tensor&) { cuda::current_stream(0).synchronize(); }},
      {"another stream's synchronize()",
       [](const Tensor&) {
         // Another stream does not wait for the failing op: let it finish first (query()
         // never raises), then the device's pending error is raised by any stream of it.
         while (!cuda::current_stream(0).query()) std::this_thread::yield();
         cuda::Stream(0).synchronize();
       }},
      {"event synchronize()",
       [](const Tensor&) { cuda::current_stream(0).record_event().synchronize(); }},
      {"another thread's cuda::synchronize()",
       [](const Tensor&) {
         std::exception_ptr raised;
         std::thread other([&] {
           try {
             cuda::synchronize(0);
           } catch (...) {
             raised = std::current_exception();
           }
         });
         other.join();
         if (raised) std::rethrow_exception(raised);
       }},
  };
}

}  // namespace

TEST(AsyncKernelError, IndexSelectOutOfRangeRaisesOnceAtEachKindOfSynchronizingCall) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_ASYNC();
  cuda::DeviceGuard start(0);
  for (const SyncKind& kind : sync_kinds()) {
    SCOPED_TRACE(kind.name);
    const Provoked p = bad_index_select();
    EXPECT_NO_THROW((void)cuda::current_stream(0).query());  // query never raises
    const std::string msg = kernel_error_of([&] { kind.sync(p.result); });
    expect_provenance(msg, "index_select", p, "forward");
    EXPECT_THAT(msg, HasSubstr("index out of range in self"));
    EXPECT_THAT(msg, HasSubstr("index 5"));
    EXPECT_THAT(msg, Not(HasSubstr("'model'")));  // the innermost scope only
    // Raised once, then cleared.
    EXPECT_NO_THROW(cuda::synchronize(0));
    EXPECT_NO_THROW(kind.sync(p.result));
  }
}

TEST(AsyncKernelError, NllLossTargetOutOfRangeRaisesAtItem) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_ASYNC();
  cuda::DeviceGuard start(0);
  const Tensor logits = ones({4, 3}, TensorOptions(kCuda0));
  const Tensor target = tensor({0, 3, 1, 2}, TensorOptions(kCuda0));
  const Tensor weight = tensor({1., 2., 3.}, TensorOptions(kCuda0));
  const Tensor lp = log_softmax(logits, 1);
  Provoked p;
  p.before = marker();
  {
    Scope scope("loss");
    p.result = nll_loss(lp, target, weight);
  }
  p.after = marker();
  const std::string msg = kernel_error_of([&] { (void)p.result.item<float>(); });
  expect_provenance(msg, "nll_loss", p, "loss");
  EXPECT_THAT(msg, HasSubstr("Target 3 is out of bounds"));
  EXPECT_NO_THROW(cuda::synchronize(0));
}

TEST(AsyncKernelError, CrossEntropyTargetOutOfRangeRaisesAtSynchronizeOutsideAnyScope) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_ASYNC();
  cuda::DeviceGuard start(0);
  const Tensor logits = ones({2, 3}, TensorOptions(kCuda0));
  const Tensor target = tensor({7, 0}, TensorOptions(kCuda0));
  const Tensor weight = tensor({1., 1., 2.}, TensorOptions(kCuda0));
  Provoked p;
  p.before = marker();
  p.result = cross_entropy(logits, target, weight, Reduction::Sum);
  p.after = marker();
  const std::string msg = kernel_error_of([] { cuda::synchronize(); });
  expect_provenance(msg, "nll_loss", p, nullptr);  // cross_entropy = log_softmax + nll_loss
  EXPECT_THAT(msg, HasSubstr("Target 7 is out of bounds"));
  EXPECT_NO_THROW(cuda::synchronize());
}

TEST(AsyncKernelError, LaterWorkOnTheDeviceRunsNormally) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_ASYNC();
  cuda::DeviceGuard start(0);
  const Provoked p = bad_index_select();
  // Work enqueued after the failure (before anyone synchronizes) still runs.
  const Tensor x = tensor({1., 2., 3.}, TensorOptions(kCuda0));
  const Tensor y = (x * 2).index_select(0, tensor({2, 0}, TensorOptions(kCuda0)));
  (void)kernel_error_of([] { cuda::synchronize(0); });
  EXPECT_EQ(y.tolist<float>(), (std::vector<float>{6, 2}));
  EXPECT_EQ((x + 1).sum().item<float>(), 9.f);
  const Tensor loss =
      cross_entropy(ones({2, 3}, TensorOptions(kCuda0)), tensor({0, 2}, TensorOptions(kCuda0)));
  EXPECT_FLOAT_EQ(loss.item<float>(), std::log(3.f));
}

TEST(AsyncKernelError, AnErrorOnOneDeviceIsNotRaisedByAnotherDevice) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_ASYNC();
  const Device cuda1("cuda:1");
  const Tensor x = ones({3}, TensorOptions(cuda1));
  const Tensor bad = x.index_select(0, tensor({3}, TensorOptions(cuda1)));
  EXPECT_NO_THROW(cuda::synchronize(0));
  EXPECT_NO_THROW((void)ones({2}, TensorOptions(kCuda0)).sum().item<float>());
  const std::string msg = kernel_error_of([&] { (void)bad.cpu(); });
  EXPECT_THAT(msg, HasSubstr("of cuda:1"));
  EXPECT_NO_THROW(cuda::synchronize(1));
}

TEST(AsyncKernelError, UnderLaunchBlockingTheOpCallItselfRaises) {
  TIDE_REQUIRE_DEVICES(1);
  if (!test::launch_blocking()) GTEST_SKIP() << "needs CUDA_LAUNCH_BLOCKING=1";
  cuda::DeviceGuard start(0);
  const Tensor x = ones({3, 4}, TensorOptions(kCuda0));
  const Tensor idx = tensor({0, 5}, TensorOptions(kCuda0));
  {
    Scope scope("eval");
    const std::string msg = kernel_error_of([&] { (void)x.index_select(0, idx); });
    EXPECT_THAT(msg, HasSubstr("kernel error in op 'index_select'"));
    EXPECT_THAT(msg, HasSubstr("enqueued in scope 'eval'"));
    EXPECT_THAT(msg, HasSubstr("index out of range in self"));
    const std::string loss_msg = kernel_error_of([] {
      (void)cross_entropy(ones({1, 2}, TensorOptions(kCuda0)), tensor({2}, TensorOptions(kCuda0)));
    });
    EXPECT_THAT(loss_msg, HasSubstr("Target 2 is out of bounds"));
  }
  // Nothing is left pending, and the device goes on.
  EXPECT_NO_THROW(cuda::synchronize(0));
  EXPECT_EQ(x.sum().item<float>(), 12.f);
}

TEST(AsyncKernelError, OnCpuTheSameBadInputRaisesAtTheCall) {
  const Tensor x = ones({3, 4});
  try {
    (void)x.index_select(0, tensor({0, 5}));
    FAIL() << "expected tide::Error";
  } catch (const KernelError&) {
    FAIL() << "cpu ops raise at the call, not as an async KernelError";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("index out of range in self"));
  }
  try {
    (void)nll_loss(log_softmax(ones({2, 3}), 1), tensor({0, 3}));
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Target 3 is out of bounds"));
  }
}
