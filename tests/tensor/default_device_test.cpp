// The default device without cuda devices: what it reaches and what it leaves alone (Note
// [Default device]). Placement on simulated GPUs is in tests/device/default_device_test.cpp.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <vector>

#include "support/defaults_guard.h"
#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::DefaultDeviceGuard;
using test::error_of;
using ::testing::HasSubstr;

TEST(DefaultDevice, IsCpuUntilSet) {
  EXPECT_EQ(get_default_device(), Device(kCPU));
  EXPECT_EQ(zeros({1}).device(), Device(kCPU));
}

TEST(DefaultDevice, FactoriesWithoutADeviceUseItAndSayWhyTheyCannot) {
  DefaultDeviceGuard cuda(Device("cuda:1"));
  EXPECT_EQ(get_default_device(), Device("cuda:1"));
  for (auto make : std::vector<std::function<Tensor()>>{
           [] { return empty({2}); }, [] { return zeros({2}, dtype(kInt64)); },
           [] { return full({2}, 1.5); }, [] { return arange(3); },
           [] { return linspace(0, 1, 2); }, [] { return rand({2}); },
           [] { return randint(0, 2, {2}); }, [] { return tensor({1, 2}); },
           [] { return scalar_tensor(1); }}) {
    std::string msg = error_of(make);
    EXPECT_THAT(msg, HasSubstr("cannot use device cuda:1"));
    EXPECT_THAT(msg, HasSubstr("TIDE_SIM_DEVICES"));
  }
  EXPECT_EQ(zeros({2}, device("cpu")).device(), Device(kCPU));  // a given device wins
}

TEST(DefaultDevice, LikeNewToAndFromBlobIgnoreIt) {
  Tensor x = ones({2}, dtype(kInt32));
  std::vector<float> buf{1, 2};
  DefaultDeviceGuard cuda(Device("cuda"));
  EXPECT_EQ(zeros_like(x).device(), Device(kCPU));
  EXPECT_EQ(ones_like(x, dtype(kFloat32)).device(), Device(kCPU));
  EXPECT_EQ(x.new_zeros({3}).device(), Device(kCPU));
  EXPECT_EQ(x.new_tensor({1, 2}).device(), Device(kCPU));
  EXPECT_EQ(x.to(kFloat64).device(), Device(kCPU));
  EXPECT_EQ(x.clone().device(), Device(kCPU));
  EXPECT_EQ((x + 1).device(), Device(kCPU));
  EXPECT_EQ(from_blob(buf.data(), {2}).device(), Device(kCPU));
}

TEST(DefaultDevice, GetResolvesCudaToTheCurrentDeviceAndSaysWhenThereIsNone) {
  DefaultDeviceGuard cuda(Device("cuda"));
  EXPECT_THAT(error_of([] { get_default_device(); }), HasSubstr("device_count() is 0"));
}

TEST(DefaultDevice, IsPerThreadAsTorchs) {
  DefaultDeviceGuard cuda(Device("cuda:1"));
  Device seen(kCUDA, 0);
  std::thread([&] { seen = get_default_device(); }).join();
  EXPECT_EQ(seen, Device(kCPU));
  std::thread([] { set_default_device(Device("cuda:0")); }).join();
  EXPECT_EQ(get_default_device(), Device("cuda:1"));
}
