// Copies between pinned host memory and simulated GPUs (Note [Copies between devices]),
// proven with held stream workers: a non_blocking copy from pinned memory returns before the
// device copy ran and reads the pinned source when it runs; a non_blocking copy into pinned
// memory does not wait; to(kCPU, non_blocking=true) gives a pinned result, as torch.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "pinned_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using test::MustNotWaitFor;
using tide::testing::StreamHold;

namespace {

/// The last device of the process: copies to it use a device other than the current one
/// whenever the configuration has several.
int last_device() { return cuda::device_count() - 1; }

std::vector<float> floats(const Tensor& t) { return t.tolist<float>(); }

}  // namespace

TEST(PinnedCopy, NonBlockingHostToDeviceFromPinnedReturnsBeforeTheCopyRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  Tensor src = tensor({1.f, 2.f, 3.f}).pin_memory();
  Tensor dst = zeros({3}, device(Device(kCUDA, dev)));
  cuda::synchronize(dev);  // the zero fill ran on another stream
  cuda::Stream s(dev);
  bool raced = false;
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    MustNotWaitFor region(s);
    dst.copy_(src, /*non_blocking=*/true);
    ASSERT_TRUE(region.done()) << "copy_ from pinned memory with non_blocking waited for the copy";
    EXPECT_FALSE(s.query());
    // Not staged: the device copy reads the pinned source when it runs, so a write before
    // then is what arrives (torch's hazard; the user must synchronize before reusing it).
    raced = TIDE_DELIBERATE_RACE(src.fill_(7));
  }
  s.synchronize();
  if (!raced) GTEST_SKIP() << test::kRaceCaught;
  EXPECT_EQ(floats(dst), (std::vector<float>{7, 7, 7}));
}

TEST(PinnedCopy, CudaNonBlockingFromPinnedMemoryReturnsBeforeTheCopyRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  Tensor src = arange(4).pin_memory();
  cuda::Stream s(dev);
  Tensor dst;
  bool raced = false;
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    MustNotWaitFor region(s);
    dst = src.cuda(dev, /*non_blocking=*/true);
    ASSERT_TRUE(region.done());
    EXPECT_EQ(dst.device(), Device(kCUDA, dev));
    raced = TIDE_DELIBERATE_RACE(src.fill_(-1));
  }
  s.synchronize();
  if (!raced) GTEST_SKIP() << test::kRaceCaught;
  EXPECT_EQ(dst.tolist<int64_t>(), (std::vector<int64_t>{-1, -1, -1, -1}));
}

TEST(PinnedCopy, HostToDeviceFromPageableMemoryStagesTheSource) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  Tensor src = tensor({1.f, 2.f, 3.f});
  Tensor dst = zeros({3}, device(Device(kCUDA, dev)));
  cuda::synchronize(dev);  // the zero fill ran on another stream
  cuda::Stream s(dev);
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    MustNotWaitFor region(s);
    dst.copy_(src, /*non_blocking=*/true);
    ASSERT_TRUE(region.done());
    // Pageable: the call returned once the source may be reused.
    src.fill_(7);
  }
  s.synchronize();
  EXPECT_EQ(floats(dst), (std::vector<float>{1, 2, 3}));
}

TEST(PinnedCopy, BlockingHostToDeviceFromPinnedMemoryMayReuseTheSourceAtOnce) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  Tensor src = tensor({1.f, 2.f}).pin_memory();
  Tensor dst = zeros({2}, device(Device(kCUDA, dev)));
  cuda::synchronize(dev);
  cuda::Stream s(dev);
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    dst.copy_(src);  // non_blocking=false
    src.fill_(9);
  }
  s.synchronize();
  EXPECT_EQ(floats(dst), (std::vector<float>{1, 2}));
}

TEST(PinnedCopy, NonBlockingDeviceToHostIntoPinnedMemoryReturnsBeforeTheCopyRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  Tensor src = tensor({4.f, 5.f, 6.f}, device(Device(kCUDA, dev)));
  Tensor dst = full({3}, -1.0, TensorOptions().pinned_memory(true));
  cuda::synchronize(dev);
  cuda::Stream s(dev);
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    MustNotWaitFor region(s);
    dst.copy_(src, /*non_blocking=*/true);
    ASSERT_TRUE(region.done()) << "copy_ into pinned memory with non_blocking waited";
    EXPECT_FALSE(s.query());
    // The copy has not run: the pinned destination still holds its old values.
    const float* p = dst.data_ptr<float>();
    EXPECT_EQ(std::vector<float>(p, p + 3), (std::vector<float>{-1, -1, -1}));
  }
  s.synchronize();
  EXPECT_EQ(floats(dst), (std::vector<float>{4, 5, 6}));
}

TEST(PinnedCopy, BlockingDeviceToHostIntoPinnedMemoryWaitsForTheCopy) {
  TIDE_REQUIRE_DEVICES(1);
  const int dev = last_device();
  Tensor src = tensor({4.f, 5.f}, device(Device(kCUDA, dev)));
  Tensor dst = zeros({2}, TensorOptions().pinned_memory(true));
  dst.copy_(src);  // non_blocking=false: returns with the data in place
  const float* p = dst.data_ptr<float>();
  EXPECT_EQ(std::vector<float>(p, p + 2), (std::vector<float>{4, 5}));
}

TEST(PinnedCopy, NonBlockingDeviceToPageableHostMemoryStillWaits) {
  TIDE_REQUIRE_DEVICES(1);
  const int dev = last_device();
  Tensor src = tensor({4.f, 5.f}, device(Device(kCUDA, dev)));
  Tensor dst = zeros({2});
  dst.copy_(src, /*non_blocking=*/true);  // pageable destination: synchronous, as torch
  const float* p = dst.data_ptr<float>();
  EXPECT_EQ(std::vector<float>(p, p + 2), (std::vector<float>{4, 5}));
}

TEST(PinnedCopy, ToCpuNonBlockingFromAGpuGivesAPinnedTensor) {
  TIDE_REQUIRE_DEVICES(1);
  const int dev = last_device();
  Tensor d = arange(5, device(Device(kCUDA, dev)).dtype(kFloat32));
  Tensor h = d.to(kCPU, /*non_blocking=*/true);
  EXPECT_TRUE(h.is_pinned());
  EXPECT_TRUE(h.device().is_cpu());
  cuda::synchronize(dev);
  EXPECT_EQ(floats(h), (std::vector<float>{0, 1, 2, 3, 4}));
  // Blocking, or with a dtype change through to(Device, Dtype, non_blocking): as torch.
  EXPECT_FALSE(d.to(kCPU).is_pinned());
  EXPECT_FALSE(d.cpu().is_pinned());
  Tensor h64 = d.to(Device(kCPU), kFloat64, /*non_blocking=*/true);
  EXPECT_TRUE(h64.is_pinned());
  cuda::synchronize(dev);
  EXPECT_EQ(h64.tolist<double>(), (std::vector<double>{0, 1, 2, 3, 4}));
}

TEST(PinnedCopy, ToCpuNonBlockingReturnsBeforeTheCopyRuns) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const int dev = last_device();
  Tensor d = full({3}, 3.0, device(Device(kCUDA, dev)));
  cuda::synchronize(dev);
  cuda::Stream s(dev);
  Tensor h;
  {
    cuda::StreamGuard guard(s);
    StreamHold hold(s);
    MustNotWaitFor region(s);
    h = d.to(kCPU, /*non_blocking=*/true);
    ASSERT_TRUE(region.done());
    EXPECT_FALSE(s.query());
  }
  s.synchronize();
  EXPECT_TRUE(h.is_pinned());
  EXPECT_EQ(floats(h), (std::vector<float>{3, 3, 3}));
}

TEST(PinnedCopy, ToCpuNonBlockingOfACpuTensorReturnsItUnpinned) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = ones({2});
  Tensor b = a.to(kCPU, /*non_blocking=*/true);
  EXPECT_EQ(b.raw_data(), a.raw_data());
  EXPECT_FALSE(b.is_pinned());
}

TEST(PinnedCopy, RoundTripThroughEveryDeviceWithPinnedBuffers) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor host = randn({64, 33});
  Tensor pinned = host.pin_memory();
  for (int dev = 0; dev < cuda::device_count(); ++dev) {
    Tensor d = pinned.cuda(dev, /*non_blocking=*/true);
    Tensor back = d.to(kCPU, /*non_blocking=*/true);
    cuda::synchronize(dev);
    EXPECT_TRUE(back.is_pinned());
    EXPECT_EQ(floats(back), floats(host)) << "device " << dev;
  }
}
