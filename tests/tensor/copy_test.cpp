#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "tide/tide.h"

using namespace tide;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Copy, ConvertsDtypesAsTorch) {
  Tensor f = tensor({-1.5, 0.0, 2.7});
  EXPECT_THAT(f.to(kInt64).tolist<int64_t>(), ElementsAre(-1, 0, 2));
  EXPECT_THAT(f.to(kBool).tolist<bool>(), ElementsAre(true, false, true));
  EXPECT_THAT(tensor({true, false}).to(kFloat32).tolist<float>(), ElementsAre(1, 0));
  EXPECT_THAT(f.to(kFloat16).to(kFloat32).tolist<float>(), ElementsAre(-1.5f, 0.0f, static_cast<float>(Half(2.7f))));
  EXPECT_THAT(f.to(kBFloat16).to(kFloat64).tolist<double>()[0], -1.5);
}

TEST(Copy, ToSameDtypeReturnsSelfUnlessCopyRequested) {
  Tensor a = ones({2});
  EXPECT_TRUE(a.to(kFloat32).is_same(a));
  EXPECT_FALSE(a.to(kFloat32, false, true).storage().is_alias_of(a.storage()));
  EXPECT_TRUE(a.to(Device("cpu")).is_same(a));
}

TEST(Copy, CopyIntoStridedViewBroadcastsSource) {
  Tensor dst = zeros({3, 2});
  dst.t().copy_(tensor({1., 2., 3.}));  // (2,3) view ← (3,) broadcast
  EXPECT_THAT(dst.tolist<float>(), ElementsAre(1, 1, 2, 2, 3, 3));
  EXPECT_THROW(dst.copy_(ones({4})), Error);
}

TEST(Copy, FillAndZeroOnViews) {
  Tensor a = zeros({3, 3});
  a.select(1, 1).fill_(7);
  EXPECT_THAT(a.tolist<float>(), ElementsAre(0, 7, 0, 0, 7, 0, 0, 7, 0));
  a.zero_();
  EXPECT_THAT(a.sum().item<float>(), 0);
}

TEST(Copy, ItemNeedsExactlyOneElement) {
  try {
    ones({2}).item<float>();
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("a Tensor with 2 elements cannot be converted to Scalar"));
  }
}

TEST(Copy, DataPtrChecksDtype) {
  try {
    ones({2}).data_ptr<int64_t>();
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("expected the tensor's dtype int64 but the tensor is float32"));
  }
}

TEST(CpuAllocator, ReusesLargeBuffersAndEmptiesCacheOnDemand) {
  cpu_empty_cache();
  void* first = nullptr;
  {
    Tensor a = empty({1 << 20});  // 4 MiB
    first = a.raw_data();
  }
  EXPECT_GE(cpu_memory_stats()["cached_bytes"], 4 << 20);
  Tensor b = empty({1 << 20});
  EXPECT_EQ(b.raw_data(), first);
  b = Tensor();
  cpu_empty_cache();
  EXPECT_EQ(cpu_memory_stats()["cached_bytes"], 0);
}

TEST(CpuAllocator, CacheIsBounded) {
  cpu_empty_cache();
  set_cpu_cache_limit(5 << 20);
  {
    Tensor a = empty({1 << 20});
    Tensor b = empty({1 << 20});
  }
  EXPECT_LE(cpu_memory_stats()["cached_bytes"], 5 << 20);
  set_cpu_cache_limit(int64_t{1} << 30);
  EXPECT_THROW(set_cpu_cache_limit(-1), Error);
}
