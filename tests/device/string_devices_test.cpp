// Device strings wherever a device goes, as the seeds write them: x.to('cuda:0'),
// torch.empty(2, device='cuda:1') (Note [String devices] in tide/tensor.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "device_helpers.h"
#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using test::cuda_device;
using test::error_of;
using test::same_bits;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(StringDevices, ToMovesToTheNamedDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard current(0);
  Tensor x = tensor({1., 2.});
  Tensor a = x.to("cuda:1");
  EXPECT_EQ(a.device(), cuda_device(1));
  EXPECT_TRUE(same_bits(x, a));
  EXPECT_EQ(x.to("cuda").device(), cuda_device(0));  // "cuda": the current device
  const std::string spec = "cuda:1";
  EXPECT_EQ(x.to(spec).device(), cuda_device(1));
  EXPECT_EQ(x.to("cuda:1", kFloat64).dtype(), kFloat64);
  Tensor back = a.to("cpu");
  EXPECT_EQ(back.device(), Device(kCPU));
  EXPECT_THAT(back.tolist<float>(), ElementsAre(1, 2));
}

TEST(StringDevices, ToTakesNonBlockingAndCopy) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor host = tensor({3., 4.}).pin_memory();
  Tensor gpu = host.to("cuda:0", /*non_blocking=*/true);
  EXPECT_EQ(gpu.device(), cuda_device(0));
  Tensor pinned_back = gpu.to("cpu", /*non_blocking=*/true);
  EXPECT_TRUE(pinned_back.is_pinned());  // GPU -> cpu non_blocking gives pinned memory, as torch
  cuda::synchronize(0);
  EXPECT_THAT(pinned_back.tolist<float>(), ElementsAre(3, 4));
  EXPECT_TRUE(gpu.to("cuda:0").is_same(gpu));  // already there: the same tensor
  Tensor copy = gpu.to("cuda:0", false, /*copy=*/true);
  EXPECT_FALSE(copy.is_same(gpu));
  EXPECT_TRUE(same_bits(gpu, copy));
  Tensor copy2 = gpu.to(std::string("cuda:0"), false, true);
  EXPECT_FALSE(copy2.is_same(gpu));
}

TEST(StringDevices, FactoriesAndCudaTakeStrings) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard current(0);
  EXPECT_EQ(empty({2}, "cuda:1").device(), cuda_device(1));
  EXPECT_EQ(zeros({2}, std::string("cuda:1")).device(), cuda_device(1));
  EXPECT_EQ(ones({2}, "cuda").device(), cuda_device(0));
  EXPECT_EQ(full({2}, 1.5, "cuda:1").device(), cuda_device(1));
  EXPECT_EQ(arange(3, "cuda:1").device(), cuda_device(1));
  EXPECT_EQ(rand({2}, "cuda:1").device(), cuda_device(1));
  EXPECT_EQ(tensor({1, 2}, "cuda:1").device(), cuda_device(1));
  EXPECT_EQ(tensor({1, 2}).cuda("cuda:1").device(), cuda_device(1));
  EXPECT_EQ(zeros_like(zeros({1}), TensorOptions("cuda:1")).device(), cuda_device(1));
}

TEST(StringDevices, ADeviceThatDoesNotExistNamesTheCount) {
  TIDE_REQUIRE_DEVICES(1);
  const int n = cuda::device_count();
  const std::string spec = "cuda:" + std::to_string(n);
  std::string msg = error_of([&] { tensor({1.}).to(spec.c_str()); });
  EXPECT_THAT(msg, HasSubstr(std::to_string(n)));
  EXPECT_THAT(error_of([] { tensor({1.}).to("GPU:0"); }), HasSubstr("GPU:0"));
}
