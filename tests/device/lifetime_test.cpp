// Lifetimes of cuda tensors whose kernels are still pending (DESIGN.md decision 4): an
// enqueued op holds its operands, so dropping the last user reference while the stream is
// held is safe, results read through other tensors are right, and the memory is not leaked.

#include <gtest/gtest.h>

#include <vector>

#include "device_helpers.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/testing/sim_hooks.h"

using namespace tide;
using test::cuda_device;
using tide::testing::StreamHold;

namespace {

/// Device memory taken from the backend. Allocator-agnostic leak checks: a round of work
/// that drops its tensors is repeated, and must not take more memory than the first round did
/// (a plain allocator returns it each time, a caching allocator reuses it).
int64_t in_use(int device) { return runtime::cuda_backend("test").memory_in_use(device); }

}  // namespace

TEST(Lifetime, DroppingTheLastReferenceToOperandsOfPendingOpsIsSafe) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const Device dev = cuda_device(0);
  const auto round = [&] {
    Tensor c;
    {
      StreamHold hold(cuda::current_stream(0));
      {
        Tensor a = full({1000}, 2.0, TensorOptions(dev));
        Tensor b = a.mul(3);
        c = b.add(1);
      }  // a and b are gone for the user; their pending kernels still hold them
      EXPECT_FALSE(cuda::current_stream(0).query());
    }
    EXPECT_EQ(c.tolist<float>(), std::vector<float>(1000, 7.f));
  };
  round();
  cuda::synchronize(0);
  const int64_t after_one = in_use(0);
  for (int i = 0; i < 5; ++i) round();
  cuda::synchronize(0);
  EXPECT_EQ(in_use(0), after_one) << "memory of dropped tensors leaked";
}

TEST(Lifetime, DroppingTheOutputOfAPendingOpIsSafe) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const Device dev = cuda_device(0);
  Tensor a = ones({64, 64}, TensorOptions(dev));
  const auto round = [&] {
    StreamHold hold(cuda::current_stream(0));
    for (int i = 0; i < 10; ++i) {
      (void)a.matmul(a);  // the result is dropped before the kernel runs
      (void)softmax(a * i, 1).sum();
    }
    a.add_(1);
  };
  round();
  EXPECT_EQ(a.sum().item<float>(), 2.f * 64 * 64);
  cuda::synchronize(0);
  const int64_t after_one = in_use(0);
  for (int i = 0; i < 3; ++i) round();
  EXPECT_EQ(a.sum().item<float>(), 5.f * 64 * 64);
  cuda::synchronize(0);
  EXPECT_EQ(in_use(0), after_one) << "memory of dropped results leaked";
}

TEST(Lifetime, AViewKeepsItsStorageAliveAfterTheBaseIsDropped) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const Device dev = cuda_device(0);
  Tensor view;
  {
    StreamHold hold(cuda::current_stream(0));
    Tensor base = arange(100, TensorOptions(dev).dtype(kFloat32));
    base.mul_(2);
    view = base.narrow(0, 10, 3);
    base = Tensor();
    view.add_(1);
  }
  EXPECT_EQ(view.tolist<float>(), (std::vector<float>{21, 23, 25}));
}

TEST(Lifetime, DroppingBothEndsOfAPendingDeviceToDeviceCopyIsSafe) {
  TIDE_REQUIRE_DEVICES(2);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const auto round = [] {
    Tensor later;
    {
      StreamHold hold(cuda::current_stream(0));
      Tensor src = full({256}, 4.0, TensorOptions(cuda_device(0)));
      Tensor dst = empty({256}, TensorOptions(cuda_device(1)));
      dst.copy_(src);
      later = dst.sqrt();  // waits for the copy on cuda:1
      src = Tensor();
      dst = Tensor();
      EXPECT_FALSE(cuda::current_stream(1).query());
    }
    EXPECT_EQ(later.tolist<float>(), std::vector<float>(256, 2.f));
  };
  round();
  cuda::synchronize(0);
  cuda::synchronize(1);
  const int64_t after_one0 = in_use(0), after_one1 = in_use(1);
  for (int i = 0; i < 3; ++i) round();
  cuda::synchronize(0);
  cuda::synchronize(1);
  EXPECT_EQ(in_use(0), after_one0);
  EXPECT_EQ(in_use(1), after_one1);
}

TEST(Lifetime, ATensorUsedOnASideStreamLivesUntilThatStreamRanIt) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const cuda::Stream side(0);
  Tensor sum;
  {
    StreamHold hold(side);
    Tensor a = full({50}, 3.0, TensorOptions(cuda_device(0)));
    side.wait_stream(cuda::current_stream(0));
    {
      cuda::StreamGuard on_side(side);
      sum = a.sum();
    }
    a = Tensor();  // the default stream is done with it; the side stream is not
  }
  side.synchronize();
  cuda::StreamGuard on_side(side);
  EXPECT_EQ(sum.item<float>(), 150.f);
}
