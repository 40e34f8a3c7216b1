// Raw device memory of simulated GPUs: capacity accounting and out-of-memory errors.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "device_test_util.h"
#include "runtime/launch.h"
#include "runtime/registry.h"
#include "tide/error.h"

using namespace tide;
using ::testing::HasSubstr;

TEST(DeviceMemory, IsAccountedPerDeviceAndReturnedOnFree) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(
      "exact memory_in_use figures (a real GPU's come from cudaMemGetInfo, shared with other "
      "contexts)");
  runtime::Backend& b = runtime::cuda_backend("test");
  const int64_t before = b.memory_in_use(0);
  void* p = runtime::device_malloc(0, 1 << 20);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(b.memory_in_use(0), before + (1 << 20));
  runtime::device_free(0, p, 1 << 20);
  EXPECT_EQ(b.memory_in_use(0), before);
}

TEST(DeviceMemory, PastCapacityRaisesOutOfMemoryNamingSizeAndCapacity) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED(
      "the simulated backend's out-of-memory message and exact memory_in_use figures");
  runtime::Backend& b = runtime::cuda_backend("test");
  const int64_t capacity = b.memory_capacity(0);
  const int64_t before = b.memory_in_use(0);  // other tests' cached segments may remain
  try {
    runtime::device_malloc(0, static_cast<size_t>(capacity) + 1);
    FAIL() << "expected tide::OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_THAT(e.what(), HasSubstr("CUDA out of memory. Tried to allocate"));
    EXPECT_THAT(e.what(), HasSubstr("total capacity of"));
    EXPECT_THAT(e.what(), HasSubstr("TIDE_SIM_MEMORY"));
  }
  EXPECT_EQ(b.memory_in_use(0), before);  // a failed allocation takes nothing
}

TEST(DeviceMemory, IsTakenFromTheHostOnlyAsUsed) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_SIMULATED("a small TIDE_SIM_MEMORY to fill");
  // Two allocations that together exceed the capacity: the second fails, the first stays.
  runtime::Backend& b = runtime::cuda_backend("test");
  const auto half = static_cast<size_t>(b.memory_capacity(0) / 2 + 1);
  if (half > (size_t{64} << 20)) GTEST_SKIP() << "needs a small TIDE_SIM_MEMORY";
  void* p = runtime::device_malloc(0, half);
  EXPECT_THROW(runtime::device_malloc(0, half), OutOfMemoryError);
  runtime::device_free(0, p, half);
  void* q = runtime::device_malloc(0, half);
  runtime::device_free(0, q, half);
}
