// The stream sanitizer (tide/cuda/sanitizer.h, Note [Stream sanitizer] in
// src/runtime/sanitizer.h): the seeds' incorrect-stream example and planted races are caught
// at the call that enqueues the racing op, naming both ops; the correct version of each
// pattern reports nothing. The verdict is made on the host from the order of calls, so these
// tests need no held streams or timing, and run unchanged on real GPUs.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "nn/parallel/replicate.h"
#include "runtime/backtrace.h"
#include "runtime/device_test_util.h"
#include "support/error_of.h"
#include "tide/autograd.h"
#include "tide/data/data_loader.h"
#include "tide/data/device_prefetcher.h"
#include "tide/data/tensor_dataset.h"
#include "tide/factories.h"
#include "tide/nn/linear.h"
#include "tide/ops.h"
#include "tide/scope.h"
#include "tide/tensor.h"

using namespace tide;
using test::cuda_device;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

/// Switches the sanitizer on for one test, and off again unless it was on before (the
/// sim2_sanitizer configuration runs every test with it on).
class SanitizerOn {
 public:
  SanitizerOn() : was_on_(cuda::sanitizer_enabled()) { cuda::enable_sanitizer(); }
  ~SanitizerOn() {
    if (!was_on_) cuda::disable_sanitizer();
  }
  SanitizerOn(const SanitizerOn&) = delete;
  SanitizerOn& operator=(const SanitizerOn&) = delete;

 private:
  bool was_on_;
};

/// The message of the StreamRaceError `f` raises, "<no race>" when it raises none. Other
/// errors propagate and fail the test.
template <class F>
std::string race_of(F&& f) {
  return test::message_of<StreamRaceError>(std::forward<F>(f), "<no race>");
}

std::string stream_text(const cuda::Stream& s) {
  return "Stream(device=cuda:" + std::to_string(s.device_index()) + ", id=" + std::to_string(s.id());
}

Tensor filled(std::vector<int64_t> sizes, double value, int device = 0) {
  return full(std::move(sizes), value, TensorOptions().device(cuda_device(device)));
}

}  // namespace

// ---- switching it on

TEST(StreamSanitizer, TheEnvironmentVariableSwitchesItOnAtStart) {
  TIDE_REQUIRE_DEVICES(1);
  EXPECT_EQ(cuda::sanitizer_enabled(), test::env_is("TIDE_CUDA_SANITIZER", "1"));
}

TEST(StreamSanitizer, EnableAndDisableSwitchItForTheProcess) {
  TIDE_REQUIRE_DEVICES(1);
  const bool before = cuda::sanitizer_enabled();
  {
    SanitizerOn on;
    EXPECT_TRUE(cuda::sanitizer_enabled());
  }
  EXPECT_EQ(cuda::sanitizer_enabled(), before);
}

TEST(StreamSanitizer, OffItReportsNothing) {
  TIDE_REQUIRE_DEVICES(1);
  if (cuda::sanitizer_enabled()) GTEST_SKIP() << "the sanitizer is on for the whole process";
  Tensor a = filled({64}, 1);
  const cuda::Stream side(0);
  cuda::StreamGuard on_side(side);
  EXPECT_EQ(race_of([&] { a.sum(); }), "<no race>");
  cuda::synchronize(0);
}

// ---- 1. the seeds' example: a tensor made on the default stream, used on a new stream

TEST(StreamSanitizer, CatchesTheSeedsSumOnANewStreamBeforeNormalFinished) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  const cuda::Stream s(0);
  Tensor A = empty({100, 100}, TensorOptions().device(cuda_device(0))).normal_(0.0, 1.0);
  const std::string race = race_of([&] {
    cuda::StreamGuard guard(s);
    Scope scope("side work");
    Tensor B = sum(A);  // sum() may start execution before normal_() finishes!
  });
  EXPECT_THAT(race, AllOf(HasSubstr("[stream sanitizer] expected `sum` on " + stream_text(s)),
                          HasSubstr("to be ordered after `normal_`"),
                          HasSubstr("Stream(device=cuda:0, id=0, default)"),
                          HasSubstr("read-after-write race"), HasSubstr("scope 'side work'"),
                          HasSubstr("wait_stream"), HasSubstr("previous access: `normal_`")));
  cuda::synchronize(0);
}

TEST(StreamSanitizer, TheSeedsExampleWithWaitStreamReportsNothing) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  const cuda::Stream s(0);
  Tensor A = empty({100, 100}, TensorOptions().device(cuda_device(0))).normal_(0.0, 1.0);
  EXPECT_EQ(race_of([&] {
              s.wait_stream(cuda::current_stream(0));
              cuda::StreamGuard guard(s);
              Tensor B = sum(A);
            }),
            "<no race>");
  cuda::synchronize(0);
}

// The op table's front ends pass each op's own name to the kernel launch (Note [Op entry]):
// unary ops once all reached it as "unary".
TEST(StreamSanitizer, AReportNamesAUnaryOpByItsOwnName) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  const cuda::Stream s(0);
  Tensor A = empty({64}, TensorOptions().device(cuda_device(0))).normal_(0.0, 1.0);
  const std::string race = race_of([&] {
    cuda::StreamGuard guard(s);
    Tensor B = sigmoid(A);
  });
  EXPECT_THAT(race, AllOf(HasSubstr("expected `sigmoid` on " + stream_text(s)),
                          HasSubstr("to be ordered after `normal_`")));
  cuda::synchronize(0);
}

TEST(StreamSanitizer, AReportSaysWhereBothOpsWereEnqueued) {
  TIDE_REQUIRE_DEVICES(1);
  if (!runtime::backtrace_symbolization_available()) GTEST_SKIP() << "no symbolizer in this build";
  SanitizerOn on;
  Tensor a = filled({8}, 1);
  const cuda::Stream side(0);
  cuda::StreamGuard guard(side);
  const std::string race = race_of([&] { a.add_(1); });
  EXPECT_THAT(race, AllOf(HasSubstr("enqueued at:\n    #0"), HasSubstr("tide::full"),
                          HasSubstr("StreamSanitizer_AReportSaysWhereBothOpsWereEnqueued")));
  cuda::synchronize(0);
}

TEST(StreamSanitizer, ARacingOpIsNotEnqueuedAndTheProcessGoesOn) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor a = filled({8}, 1);
  const cuda::Stream side(0);
  {
    cuda::StreamGuard guard(side);
    EXPECT_NE(race_of([&] { a.add_(1); }), "<no race>");
  }
  side.wait_stream(cuda::current_stream(0));
  cuda::StreamGuard guard(side);
  a.add_(1);
  EXPECT_EQ(a.sum().item<float>(), 16.0f);  // the racing add_ never ran
}

// ---- 2. a copy on a side stream read without waiting

TEST(StreamSanitizer, CatchesACopyOnASideStreamReadWithoutWaiting) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor src = filled({256}, 2);
  Tensor dst = filled({256}, 0);
  const cuda::Stream side(0);
  side.wait_stream(cuda::current_stream(0));
  {
    cuda::StreamGuard guard(side);
    dst.copy_(src);
  }
  EXPECT_THAT(race_of([&] { dst.mul(3); }),
              AllOf(HasSubstr("`mul` on Stream(device=cuda:0, id=0, default)"),
                    HasSubstr("ordered after `copy_` on " + stream_text(side)),
                    HasSubstr("read-after-write")));
  cuda::current_stream(0).wait_stream(side);
  EXPECT_EQ(race_of([&] { dst.mul(3); }), "<no race>");
  cuda::synchronize(0);
}

// ---- 3. an in-place op racing an in-place op

TEST(StreamSanitizer, CatchesInPlaceOpsOfTwoStreamsOnOneTensor) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = filled({32}, 1);
  const cuda::Stream side(0);
  side.wait_stream(cuda::current_stream(0));
  x.add_(1);  // default stream, after the side stream's wait
  cuda::StreamGuard guard(side);
  EXPECT_THAT(race_of([&] { x.mul_(2); }), HasSubstr("write-after-write race"));
  side.wait_stream(cuda::default_stream(0));
  EXPECT_EQ(race_of([&] { x.mul_(2); }), "<no race>");
  EXPECT_EQ(x.sum().item<float>(), 128.0f);
}

// ---- 4. write after read

TEST(StreamSanitizer, CatchesAWriteOverMemoryASideStreamStillReads) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = filled({64}, 1);
  const cuda::Stream side(0);
  side.wait_stream(cuda::current_stream(0));
  Tensor total;
  {
    cuda::StreamGuard guard(side);
    total = x.sum();
  }
  EXPECT_THAT(race_of([&] { x.fill_(5); }),
              AllOf(HasSubstr("expected `fill_`"), HasSubstr("after `sum`"),
                    HasSubstr("write-after-read race")));
  cuda::current_stream(0).wait_stream(side);
  EXPECT_EQ(race_of([&] { x.fill_(5); }), "<no race>");
  EXPECT_EQ(total.item<float>(), 64.0f);
}

// ---- 5. reuse after free: memory the allocator cannot know, and memory it orders itself

TEST(StreamSanitizer, CatchesReuseOfMemoryNoAllocatorTracksWhileASideStreamReadsIt) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  // The caller manages a buffer itself and wraps it with from_blob: no allocator records the
  // side stream's use, so nothing keeps the memory from being written again too early.
  Tensor arena = filled({1024}, 1);
  const TensorOptions opts = TensorOptions().device(cuda_device(0));
  const cuda::Stream side(0);
  side.wait_stream(cuda::current_stream(0));
  Tensor total;
  {
    Tensor first = from_blob(arena.raw_data(), {1024}, opts);
    cuda::StreamGuard guard(side);
    total = first.sum();
  }  // `first` is gone; the caller reuses its memory for the next tensor
  Tensor second = from_blob(arena.raw_data(), {512}, opts);
  EXPECT_THAT(race_of([&] { second.fill_(7); }),
              AllOf(HasSubstr("expected `fill_`"), HasSubstr("after `sum` on " + stream_text(side)),
                    HasSubstr("write-after-read")));
  cuda::current_stream(0).wait_stream(side);
  EXPECT_EQ(race_of([&] { second.fill_(7); }), "<no race>");
  EXPECT_EQ(total.item<float>(), 1024.0f);
}

TEST(StreamSanitizer, ReuseOfACachingAllocatorBlockIsOrderedByTheAllocator) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  const cuda::Stream side(0);
  Tensor total;
  {
    Tensor x = filled({4096}, 1);
    side.wait_stream(cuda::current_stream(0));
    cuda::StreamGuard guard(side);
    total = x.sum();  // the allocator records the side stream's use (Note [Stream uses])
  }  // x freed while the side stream may still read it: its block waits for the side stream
  EXPECT_EQ(race_of([&] {
              for (int i = 0; i < 4; ++i) {
                Tensor y = filled({4096}, 2);  // may get x's block once the marker completed
                y.add_(1);
              }
            }),
            "<no race>");
  cuda::current_stream(0).wait_stream(side);  // total was made on the side stream
  EXPECT_EQ(total.item<float>(), 4096.0f);
}

// ---- 6. an event recorded too early

TEST(StreamSanitizer, CatchesAnEventRecordedBeforeTheWorkItShouldCover) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = filled({128}, 1);
  const cuda::Stream side(0);
  side.wait_stream(cuda::current_stream(0));
  cuda::Event done;
  {
    cuda::StreamGuard guard(side);
    done.record(side);  // too early: before the write below
    x.mul_(3);
  }
  done.wait(cuda::current_stream(0));
  EXPECT_THAT(race_of([&] { x.sum(); }), AllOf(HasSubstr("after `Tensor::mul_`"), HasSubstr("read-after-write")));
  cuda::Event after;
  after.record(side);
  after.wait(cuda::current_stream(0));
  EXPECT_EQ(race_of([&] { x.sum(); }), "<no race>");
  cuda::synchronize(0);
}

// ---- 7. a prefetcher without its wait

TEST(StreamSanitizer, CatchesAHandWrittenPrefetcherThatForgetsToWait) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor host = arange(64).to(kFloat32).pin_memory();
  const cuda::Stream copy_stream(0);
  Tensor batch;
  {
    cuda::StreamGuard guard(copy_stream);
    batch = host.to(cuda_device(0), /*non_blocking=*/true);
  }
  EXPECT_THAT(race_of([&] { batch.sum(); }),
              AllOf(HasSubstr("after `copy_` on " + stream_text(copy_stream)), HasSubstr("read-after-write")));
  cuda::current_stream(0).wait_stream(copy_stream);
  EXPECT_EQ(race_of([&] { batch.sum(); }), "<no race>");
  cuda::synchronize(0);
}

TEST(StreamSanitizer, DevicePrefetcherBatchesUsedOnTheCallersStreamReportNothing) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = arange(40).to(kFloat32).reshape({20, 2});
  data::DataLoader loader(std::make_shared<data::TensorDataset>(x, arange(20)),
                          data::DataLoaderOptions().batch_size(6).pin_memory(true));
  data::DevicePrefetcher prefetcher(loader, cuda_device(0));
  double total = 0;
  EXPECT_EQ(race_of([&] {
              for (const data::Example& b : prefetcher) total += b.data.sum().item<double>();
            }),
            "<no race>");
  EXPECT_EQ(total, 780.0);
}

// ---- 8. a DataParallel replica read too early

TEST(StreamSanitizer, CatchesAReplicasParameterReadOnAnotherStreamBeforeItsCopy) {
  TIDE_REQUIRE_DEVICES(2);
  SanitizerOn on;
  nn::Linear layer(4, 3);
  layer.to(cuda_device(0));
  nn::parallel::Replicas replicas;
  const std::vector<nn::Module*> copies = replicas.refresh(layer, {1});
  ASSERT_EQ(copies.size(), 1u);
  Tensor weight1 = copies[0]->named_parameters()[0].second;
  ASSERT_EQ(weight1.device(), cuda_device(1));
  const cuda::Stream side1(1);
  {
    cuda::StreamGuard guard(side1);
    EXPECT_THAT(race_of([&] { weight1.sum(); }),
                AllOf(HasSubstr("`sum` on " + stream_text(side1)), HasSubstr("after `copy_`"),
                      HasSubstr("read-after-write")));
  }
  side1.wait_stream(cuda::current_stream(1));
  cuda::StreamGuard guard(side1);
  EXPECT_EQ(race_of([&] { weight1.sum(); }), "<no race>");
  cuda::synchronize(1);
}

// ---- 9. a non_blocking copy into pinned memory read on the host before synchronizing

TEST(StreamSanitizer, CatchesTheHostReadingAPinnedCopyBeforeItsStreamFinished) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor d = filled({16}, 4);
  Tensor h = d.to(Device(kCPU), /*non_blocking=*/true);
  ASSERT_TRUE(h.is_pinned());
  EXPECT_THAT(race_of([&] { h.sum(); }),
              AllOf(HasSubstr("expected the host (`sum` on cpu)"), HasSubstr("after `copy_`"),
                    HasSubstr("stream.synchronize()")));
  EXPECT_THAT(race_of([&] { h[0].item<float>(); }), HasSubstr("the host (`item` on cpu)"));
  cuda::current_stream(0).synchronize();
  EXPECT_EQ(race_of([&] { EXPECT_EQ(h.sum().item<float>(), 64.0f); }), "<no race>");
}

TEST(StreamSanitizer, AnEventSynchronizeOrdersTheHostReadOfAPinnedCopy) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor d = filled({16}, 4);
  Tensor h = d.to(Device(kCPU), /*non_blocking=*/true);
  cuda::current_stream(0).record_event().synchronize();
  EXPECT_EQ(race_of([&] { EXPECT_EQ(h.sum().item<float>(), 64.0f); }), "<no race>");
}

TEST(StreamSanitizer, CatchesTheHostOverwritingPinnedMemoryACopyStillReads) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor h = full({16}, 1.0).pin_memory();
  Tensor d = filled({16}, 0);
  d.copy_(h, /*non_blocking=*/true);
  EXPECT_THAT(race_of([&] { h.fill_(9); }),
              AllOf(HasSubstr("the host (`fill_` on cpu)"), HasSubstr("write-after-read")));
  cuda::synchronize(0);
  EXPECT_EQ(race_of([&] { h.fill_(9); }), "<no race>");
  EXPECT_EQ(d.sum().item<float>(), 16.0f);
}

// ---- 10. two side streams writing one tensor

TEST(StreamSanitizer, CatchesTwoSideStreamsWritingOneTensor) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = filled({48}, 0);
  const cuda::Stream s1(0), s2(0);
  ASSERT_NE(s1, s2);
  s1.wait_stream(cuda::current_stream(0));
  s2.wait_stream(cuda::current_stream(0));
  {
    cuda::StreamGuard guard(s1);
    x.fill_(1);
  }
  cuda::StreamGuard guard(s2);
  EXPECT_THAT(race_of([&] { x.fill_(2); }),
              AllOf(HasSubstr("`fill_` on " + stream_text(s2)),
                    HasSubstr("after `fill_` on " + stream_text(s1)), HasSubstr("write-after-write")));
  s2.wait_stream(s1);
  EXPECT_EQ(race_of([&] { x.fill_(2); }), "<no race>");
  cuda::synchronize(0);
}

TEST(StreamSanitizer, TwoSideStreamsWritingDisjointHalvesOfOneTensorReportNothing) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = filled({2, 24}, 0);
  const cuda::Stream s1(0), s2(0);
  s1.wait_stream(cuda::current_stream(0));
  s2.wait_stream(cuda::current_stream(0));
  EXPECT_EQ(race_of([&] {
              {
                cuda::StreamGuard guard(s1);
                x[0].fill_(1);
              }
              cuda::StreamGuard guard(s2);
              x[1].fill_(2);
            }),
            "<no race>");
  // A strided column overlaps both rows' extents: it races with both writes.
  cuda::StreamGuard guard(s1);
  EXPECT_THAT(race_of([&] { x.select(1, 3).sum(); }), HasSubstr("after `fill_` on " + stream_text(s2)));
  cuda::synchronize(0);
}

// ---- 11. a copy between devices read on the destination's side stream

TEST(StreamSanitizer, CatchesACrossDeviceCopyReadOnASideStreamOfTheDestination) {
  TIDE_REQUIRE_DEVICES(2);
  SanitizerOn on;
  Tensor x = filled({32}, 3, 0);
  Tensor y = x.to(cuda_device(1));  // ordered before cuda:1's current stream only
  const cuda::Stream side1(1);
  {
    cuda::StreamGuard guard(side1);
    EXPECT_THAT(race_of([&] { y.sum(); }), AllOf(HasSubstr("after `copy_`"), HasSubstr("read-after-write")));
  }
  EXPECT_EQ(race_of([&] { EXPECT_EQ(y.sum().item<float>(), 96.0f); }), "<no race>");
}

// ---- 12. an optimizer-like update racing the read of its input on another stream

TEST(StreamSanitizer, CatchesAnInPlaceUpdateWhileAnotherStreamReadsAView) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor w = filled({8, 8}, 1);
  const cuda::Stream reader(0);
  reader.wait_stream(cuda::current_stream(0));
  Tensor row;
  {
    cuda::StreamGuard guard(reader);
    row = w[2].mul(2);  // reads one row of w
  }
  EXPECT_EQ(race_of([&] { w[5].sub_(1); }), "<no race>");  // another row: no overlap
  EXPECT_THAT(race_of([&] { w.sub_(1); }), AllOf(HasSubstr("`Tensor::sub_`"), HasSubstr("after `mul`"), HasSubstr("write-after-read")));
  cuda::synchronize(0);
}

// ---- synchronization the sanitizer follows

TEST(StreamSanitizer, APollingQueryThatSawTheWorkFinishOrdersLikeASynchronize) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  Tensor x = filled({8}, 1);
  const cuda::Stream side(0);
  side.wait_stream(cuda::current_stream(0));
  {
    cuda::StreamGuard guard(side);
    x.mul_(2);
  }
  cuda::Event done;
  done.record(side);
  while (!done.query()) {
  }
  EXPECT_EQ(race_of([&] { x.add_(1); }), "<no race>");
  side.wait_stream(cuda::current_stream(0));
  {
    cuda::StreamGuard guard(side);
    x.mul_(2);
  }
  while (!side.query()) {
  }
  EXPECT_EQ(race_of([&] { EXPECT_EQ(x.sum().item<float>(), 48.0f); }), "<no race>");
}

TEST(StreamSanitizer, DeviceAndStreamSynchronizeOrderEveryLaterLaunch) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  const cuda::Stream side(0);
  Tensor x = filled({8}, 1);
  cuda::synchronize(0);
  {
    cuda::StreamGuard guard(side);
    EXPECT_EQ(race_of([&] { x.add_(1); }), "<no race>");
  }
  side.synchronize();
  EXPECT_EQ(race_of([&] { x.add_(1); }), "<no race>");
  EXPECT_EQ(x.sum().item<float>(), 24.0f);
}

// ---- autograd's stream semantics, as the sanitizer sees them

// autograd::grad of an activation made on `a` and used twice on `b`: its two gradients are
// summed on `a` (the captured node does not run), so the caller's stream `c` must wait for `a`
// before it reads the result (tests/device/autograd_test.cpp proves the same with held streams).
TEST(StreamSanitizer, AutogradGradOfAnActivationUsedTwiceReadOnTheCallersStreamReportsNothing) {
  TIDE_REQUIRE_DEVICES(1);
  SanitizerOn on;
  const Tensor x = filled({64}, 0.5).requires_grad_();
  const cuda::Stream a(0), b(0), c(0);
  Tensor h, out;
  {
    cuda::StreamGuard guard(a);
    a.wait_stream(cuda::default_stream(0));
    h = x * 2;
  }
  {
    cuda::StreamGuard guard(b);
    b.wait_stream(a);
    out = (h * 3).sum() + (h * 5).sum();
  }
  cuda::StreamGuard guard(c);
  const Tensor g = autograd::grad({out}, {h}).at(0);
  EXPECT_EQ(race_of([&] { EXPECT_EQ(g.sum().item<float>(), 64 * 8.0f); }), "<no race>");
}
