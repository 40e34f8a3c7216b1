// Note [Restoring a device]: the restore decision of the real CUDA backend's guards, checked
// with a fake driver that creates a "context" whenever a device is set, as CUDA 12+ does.

#include "backends/cuda/thread_device.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

using tide::backends::cuda::host_alloc_device;
using tide::backends::cuda::ThreadDevice;

namespace {

struct FakeDriver {
  int real = 0;                // a fresh thread's current device, as CUDA's
  std::set<int> contexts;      // devices whose primary context is active
  std::vector<int> set_calls;  // every cudaSetDevice
  bool fail_set = false;

  int get() noexcept { return real; }
  bool set(int device) noexcept {
    set_calls.push_back(device);
    if (fail_set) return false;
    real = device;
    contexts.insert(device);  // cudaSetDevice creates the primary context at once
    return true;
  }
  bool has_primary_context(int device) noexcept { return contexts.count(device) != 0; }
};

/// What a guard does around work on `device`: enter it, then restore the previous device.
void work_on(ThreadDevice& thread, FakeDriver& driver, int device) {
  const int previous = thread.current(driver);
  if (driver.get() != device) driver.set(device);
  thread.forget_target();
  EXPECT_EQ(thread.current(driver), device);
  thread.restore(driver, previous);
}

}  // namespace

TEST(ThreadDevice, WorkOnlyOnGpu1FromAFreshThreadCreatesNoContextOnGpu0) {
  FakeDriver driver;
  ThreadDevice thread;
  work_on(thread, driver, 1);  // ones({4}, cuda:1)
  EXPECT_EQ(driver.contexts, (std::set<int>{1}));
  EXPECT_EQ(driver.set_calls, (std::vector<int>{1}));
  // tide still reports cuda:0 as current, as torch does.
  EXPECT_EQ(thread.current(driver), 0);
  // More work on cuda:1 needs no further device switch of the driver.
  work_on(thread, driver, 1);
  EXPECT_EQ(driver.set_calls, (std::vector<int>{1}));
  EXPECT_EQ(driver.contexts, (std::set<int>{1}));
}

TEST(ThreadDevice, ARestoreSetsADeviceWhoseContextIsActive) {
  FakeDriver driver;
  driver.contexts = {0, 1};
  ThreadDevice thread;
  work_on(thread, driver, 1);
  EXPECT_EQ(driver.set_calls, (std::vector<int>{1, 0}));
  EXPECT_EQ(driver.real, 0);
  EXPECT_EQ(thread.current(driver), 0);
}

TEST(ThreadDevice, RestoringTheDeviceAlreadyCurrentCallsNothing) {
  FakeDriver driver;
  ThreadDevice thread;
  thread.restore(driver, 0);
  EXPECT_TRUE(driver.set_calls.empty());
  EXPECT_TRUE(driver.contexts.empty());
  EXPECT_EQ(thread.current(driver), 0);
}

TEST(ThreadDevice, AnExplicitSetReplacesTheRememberedDevice) {
  FakeDriver driver;
  ThreadDevice thread;
  work_on(thread, driver, 2);
  ASSERT_EQ(thread.current(driver), 0);  // remembered, not set
  // set_device(3): the backend sets the driver's device and forgets the target.
  driver.set(3);
  thread.forget_target();
  EXPECT_EQ(thread.current(driver), 3);
}

TEST(ThreadDevice, NestedGuardsRestoreEachLevelWithoutNewContexts) {
  FakeDriver driver;
  ThreadDevice thread;
  // with DeviceGuard(1): with DeviceGuard(2): ... — then back to 1, then to 0.
  const int outer = thread.current(driver);
  driver.set(1);
  thread.forget_target();
  work_on(thread, driver, 2);
  EXPECT_EQ(thread.current(driver), 1);  // cuda:1 has a context: set again
  EXPECT_EQ(driver.real, 1);
  thread.restore(driver, outer);
  EXPECT_EQ(thread.current(driver), 0);
  EXPECT_EQ(driver.contexts, (std::set<int>{1, 2}));
}

TEST(ThreadDevice, AFailingSetDuringARestoreOnlyRemembersTheDevice) {
  FakeDriver driver;
  driver.contexts = {0, 1};
  ThreadDevice thread;
  driver.set(1);
  thread.forget_target();
  driver.fail_set = true;
  thread.restore(driver, 0);  // noexcept: a destructor's restore never throws
  EXPECT_EQ(thread.current(driver), 0);
  EXPECT_EQ(driver.real, 1);
}

TEST(ThreadDevice, PinnedMemoryIsAllocatedOnADeviceThatHasAContext) {
  FakeDriver driver;
  EXPECT_EQ(host_alloc_device(driver, 0, 4), 0);  // no context anywhere: the current device
  driver.contexts = {2};
  EXPECT_EQ(host_alloc_device(driver, 0, 4), 2);  // not GPU 0, which nothing used
  driver.contexts = {0, 2};
  EXPECT_EQ(host_alloc_device(driver, 2, 4), 2);  // the current one when it has a context
  EXPECT_EQ(host_alloc_device(driver, 3, 4), 0);
}
