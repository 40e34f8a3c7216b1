// Pinned cpu tensors: Tensor::pin_memory(), is_pinned(), TensorOptions::pinned_memory(true),
// and the errors torch raises for pinning without a cuda device or on a cuda device.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "pinned_helpers.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"

using namespace tide;
using ::testing::HasSubstr;

TEST(PinnedTensor, PinMemoryCopiesIntoPinnedMemory) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = tensor({1.f, 2.f, 3.f});
  EXPECT_FALSE(a.is_pinned());
  Tensor p = a.pin_memory();
  EXPECT_TRUE(p.is_pinned());
  EXPECT_TRUE(p.device().is_cpu());
  EXPECT_EQ(p.dtype(), kFloat32);
  EXPECT_NE(p.raw_data(), a.raw_data());
  EXPECT_EQ(p.tolist<float>(), (std::vector<float>{1, 2, 3}));
  // A copy: writing the original later does not change the pinned tensor.
  a.fill_(0);
  EXPECT_EQ(p.tolist<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(PinnedTensor, PinMemoryOfAPinnedTensorReturnsItself) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor p = ones({4}, TensorOptions().pinned_memory(true));
  Tensor q = p.pin_memory();
  EXPECT_TRUE(q.storage().is_alias_of(p.storage()));
  EXPECT_EQ(q.raw_data(), p.raw_data());
}

TEST(PinnedTensor, PinMemoryOfANonContiguousViewKeepsItsValues) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor a = arange(6).view({2, 3}).t();
  Tensor p = a.pin_memory();
  EXPECT_TRUE(p.is_pinned());
  EXPECT_EQ(p.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(p.dtype(), kInt64);
  EXPECT_EQ(p.tolist<int64_t>(), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST(PinnedTensor, FactoriesWithPinnedMemoryMakePinnedCpuTensors) {
  TIDE_REQUIRE_DEVICES(1);
  const TensorOptions pinned = TensorOptions().pinned_memory(true);
  Tensor e = empty({2, 3}, pinned);
  Tensor z = zeros({5}, pinned.dtype(kInt32));
  Tensor f = full({2}, 2.5, pinned);
  for (const Tensor& t : {e, z, f}) {
    EXPECT_TRUE(t.is_pinned());
    EXPECT_TRUE(t.device().is_cpu());
  }
  EXPECT_EQ(z.dtype(), kInt32);
  EXPECT_EQ(z.tolist<int32_t>(), (std::vector<int32_t>(5, 0)));
  EXPECT_EQ(f.tolist<float>(), (std::vector<float>{2.5f, 2.5f}));
  EXPECT_FALSE(empty({2}).is_pinned());
  EXPECT_FALSE(empty({2}, TensorOptions().pinned_memory(false)).is_pinned());
}

TEST(PinnedTensor, ViewsOfAPinnedTensorArePinned) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor p = arange(6).pin_memory();
  EXPECT_TRUE(p.view({2, 3}).is_pinned());
  EXPECT_TRUE(p.narrow(0, 1, 2).is_pinned());
}

TEST(PinnedTensor, OpsOnPinnedTensorsGiveOrdinaryCpuTensors) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor p = ones({3}, TensorOptions().pinned_memory(true));
  Tensor r = p + p;
  EXPECT_FALSE(r.is_pinned());
  EXPECT_EQ(r.tolist<float>(), (std::vector<float>{2, 2, 2}));
  EXPECT_FALSE(p.clone().is_pinned());
  // cpu() of a cpu tensor is the tensor itself, as torch.
  EXPECT_EQ(p.cpu().raw_data(), p.raw_data());
  EXPECT_TRUE(p.cpu().is_pinned());
}

TEST(PinnedTensor, PinnedMemoryOnACudaDeviceRaises) {
  TIDE_REQUIRE_DEVICES(1);
  try {
    empty({2}, device("cuda:0").pinned_memory(true));
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[empty] Only dense CPU tensors can be pinned"));
    EXPECT_THAT(e.what(), HasSubstr("cuda:0"));
  }
  try {
    zeros({2}, device("cuda").pinned_memory(true));
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Only dense CPU tensors can be pinned"));
  }
}

TEST(PinnedTensor, PinMemoryOfACudaTensorRaises) {
  TIDE_REQUIRE_DEVICES(1);
  Tensor d = ones({2}, device("cuda:0"));
  try {
    d.pin_memory();
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[Tensor::pin_memory] cannot pin a tensor on cuda:0"));
    EXPECT_THAT(e.what(), HasSubstr("only dense CPU tensors can be pinned"));
  }
}

TEST(PinnedTensor, PinMemoryWithoutCudaDevicesRaises) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  Tensor a = ones({2});
  try {
    a.pin_memory();
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[Tensor::pin_memory] pinned memory needs a cuda device"));
    EXPECT_THAT(e.what(), HasSubstr("device_count() is 0"));
    EXPECT_THAT(e.what(), HasSubstr("TIDE_SIM_DEVICES"));
  }
  try {
    empty({2}, TensorOptions().pinned_memory(true));
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[empty] pinned memory needs a cuda device"));
  }
  try {
    full({2}, 1, TensorOptions().pinned_memory(true));
    FAIL() << "expected tide::Error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[full] pinned memory needs a cuda device"));
  }
}

TEST(PinnedTensor, HostMemoryStatsWorkWithoutCudaDevices) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "this process has cuda devices";
  cuda::host_empty_cache();
  auto stats = cuda::host_memory_stats();
  EXPECT_EQ(stats.at("allocation.current"), 0);
  EXPECT_EQ(stats.at("reserved_bytes.current"), 0);
  EXPECT_EQ(stats.at("num_host_alloc"), 0);
}
