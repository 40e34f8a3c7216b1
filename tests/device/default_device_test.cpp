// The default device on simulated (or real) GPUs: factories without a device allocate there,
// everything else stays where its source is, and each thread has its own (Note [Default device]).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "device_helpers.h"
#include "support/defaults_guard.h"
#include "tide/tide.h"

using namespace tide;
using test::cuda_device;
using test::DefaultDeviceGuard;
using test::DefaultDtypeGuard;
using ::testing::ElementsAre;

TEST(DefaultDevice, EveryFactoryWithoutADeviceAllocatesOnIt) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard current(0);  // the default names cuda:1, whatever is current
  DefaultDeviceGuard on1(Device("cuda:1"));
  EXPECT_EQ(get_default_device(), cuda_device(1));
  const Device d1 = cuda_device(1);
  EXPECT_EQ(empty({2}).device(), d1);
  EXPECT_EQ(empty_strided({2}, {1}).device(), d1);
  EXPECT_EQ(zeros({2}).device(), d1);
  EXPECT_EQ(ones({2}, dtype(kInt64)).device(), d1);  // options without a device
  EXPECT_EQ(full({2}, 1.5).device(), d1);
  EXPECT_EQ(arange(3).device(), d1);
  EXPECT_EQ(linspace(0, 1, 3).device(), d1);
  EXPECT_EQ(rand({2}).device(), d1);
  EXPECT_EQ(randn({2}).device(), d1);
  EXPECT_EQ(randint(0, 5, {2}).device(), d1);
  EXPECT_EQ(scalar_tensor(1).device(), d1);
  Tensor t = tensor({1., 2.});
  EXPECT_EQ(t.device(), d1);
  EXPECT_THAT(t.tolist<float>(), ElementsAre(1, 2));
  EXPECT_THAT(arange(3).tolist<int64_t>(), ElementsAre(0, 1, 2));
  EXPECT_EQ(t.str(), "tensor([1., 2.], device='cuda:1')");
}

TEST(DefaultDevice, AGivenDeviceWins) {
  TIDE_REQUIRE_DEVICES(2);
  DefaultDeviceGuard on1(Device("cuda:1"));
  EXPECT_EQ(zeros({2}, device("cpu")).device(), Device(kCPU));
  EXPECT_EQ(zeros({2}, "cuda:0").device(), cuda_device(0));
  EXPECT_EQ(tensor({1, 2}, device(kCPU)).device(), Device(kCPU));
  EXPECT_EQ(arange(3, device(kCPU)).device(), Device(kCPU));
}

TEST(DefaultDevice, CudaWithoutAnIndexFollowsTheCurrentDevice) {
  TIDE_REQUIRE_DEVICES(2);
  cuda::DeviceGuard current(0);
  DefaultDeviceGuard on_cuda(Device("cuda"));
  EXPECT_EQ(get_default_device(), cuda_device(0));
  EXPECT_EQ(zeros({1}).device(), cuda_device(0));
  cuda::DeviceGuard now1(1);
  EXPECT_EQ(get_default_device(), cuda_device(1));
  EXPECT_EQ(zeros({1}).device(), cuda_device(1));
}

TEST(DefaultDevice, LikeNewToFromBlobAndPinnedStayWhereTheirSourceIs) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor host = ones({2}, dtype(kInt32));
  std::vector<float> buf{1, 2};
  DefaultDeviceGuard on0(Device("cuda:0"));
  EXPECT_EQ(zeros_like(host).device(), Device(kCPU));
  EXPECT_EQ(full_like(host, 2, dtype(kInt64)).device(), Device(kCPU));
  EXPECT_EQ(host.new_ones({1}).device(), Device(kCPU));
  EXPECT_EQ(host.new_tensor({1, 2}).device(), Device(kCPU));
  EXPECT_EQ(host.to(kFloat64).device(), Device(kCPU));
  EXPECT_EQ(host.to(dtype(kFloat64)).device(), Device(kCPU));
  EXPECT_EQ(from_blob(buf.data(), {2}).device(), Device(kCPU));
  Tensor pinned = empty({2}, TensorOptions().pinned_memory(true));
  EXPECT_EQ(pinned.device(), Device(kCPU));
  EXPECT_TRUE(pinned.is_pinned());
  // And a cuda source keeps its device even when the default is another one.
  Tensor gpu = zeros({2});
  EXPECT_EQ(gpu.device(), cuda_device(0));
  DefaultDeviceGuard back_to_cpu{Device(kCPU)};
  EXPECT_EQ(zeros_like(gpu).device(), cuda_device(0));
  EXPECT_EQ(gpu.new_zeros({1}).device(), cuda_device(0));
  EXPECT_EQ((gpu + 1).device(), cuda_device(0));
  // An explicit cpu is an explicit device (the options record that it was given).
  EXPECT_EQ(zeros_like(gpu, device(kCPU)).device(), Device(kCPU));
  EXPECT_EQ(gpu.to(device(kCPU)).device(), Device(kCPU));
}

TEST(DefaultDevice, IsPerThread) {
  TIDE_REQUIRE_DEVICES(1);
  DefaultDeviceGuard on0(Device("cuda:0"));
  Device made_in_worker(kCUDA, 0);
  std::thread([&] { made_in_worker = zeros({1}).device(); }).join();
  EXPECT_EQ(made_in_worker, Device(kCPU));  // a worker thread allocates on the cpu
  std::thread([] { set_default_device(Device(kCPU)); }).join();
  EXPECT_EQ(zeros({1}).device(), cuda_device(0));
}

// The seeds' torch.set_default_tensor_type('torch.cuda.FloatTensor'), spelled as today's torch.
TEST(DefaultDevice, WithTheDefaultDtypeReplacesSetDefaultTensorType) {
  TIDE_REQUIRE_DEVICES(1);
  cuda::DeviceGuard current(0);
  DefaultDeviceGuard on_cuda(Device("cuda"));
  DefaultDtypeGuard f32(kFloat32);
  Tensor x = tensor({1.5, 2.5});
  EXPECT_EQ(x.device(), cuda_device(0));
  EXPECT_EQ(x.dtype(), kFloat32);
  Tensor y = tensor({1, 2}) + 0.5;  // an int tensor on the default device, promoted
  EXPECT_EQ(y.device(), cuda_device(0));
  EXPECT_EQ(y.dtype(), kFloat32);
  EXPECT_THAT(y.tolist<float>(), ElementsAre(1.5f, 2.5f));
  DefaultDtypeGuard f64(kFloat64);
  Tensor z = rand({3});
  EXPECT_EQ(z.device(), cuda_device(0));
  EXPECT_EQ(z.dtype(), kFloat64);
}
