// Note [Restoring a device] on real GPUs: work on one GPU creates no context on another.
// ctest runs each case in its own process, so the contexts seen are this case's alone.

#include <gtest/gtest.h>

#include "device_helpers.h"
#include "tide/detail/build_config.h"
#include "tide/factories.h"
#include "tide/ops.h"
#if TIDE_BUILT_WITH_CUDA
#include "backends/cuda/runtime_driver.h"
#endif

using namespace tide;

TEST(Contexts, WorkOnlyOnCuda1CreatesNoContextOnCuda0) {
#if !TIDE_BUILT_WITH_CUDA
  GTEST_SKIP() << "needs the real CUDA backend: this build has none";
#else
  TIDE_REQUIRE_DEVICES(2);
  if (!test::real_gpu()) GTEST_SKIP() << "needs real GPUs: only they have primary contexts";
  Tensor x = ones({4}, TensorOptions(Device("cuda:1")));  // a fresh thread's device is 0
  EXPECT_EQ(x.sum().item<float>(), 4.f);
  {
    cuda::DeviceGuard guard(1);
    Tensor pinned = x.to(kCPU, /*non_blocking=*/true);  // pinned host memory
    cuda::synchronize();
    EXPECT_TRUE(pinned.is_pinned());
  }
  x = Tensor();  // a free on cuda:1 restores the previous device too
  backends::cuda::RuntimeDriver driver;
  EXPECT_TRUE(driver.has_primary_context(1));
  EXPECT_FALSE(driver.has_primary_context(0))
      << "work on cuda:1 created a context on cuda:0 (Note [Restoring a device])";
  EXPECT_EQ(cuda::current_device(), 0);  // as torch: still reported as the current device
#endif
}
