// DDPOptions' defaults and chaining, and DistributedDataParallel without a process group.
// The DDP itself is tested under mpirun (ddp_mpi_test.cpp).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::HasSubstr;

TEST(DDPOptions, ChainsAndHasTorchsDefaults) {
  nn::DDPOptions o;
  EXPECT_TRUE(o.device_ids().empty());
  EXPECT_EQ(o.bucket_cap_mb(), 25u);
  EXPECT_FALSE(o.find_unused_parameters());
  EXPECT_TRUE(o.broadcast_buffers());
  o.device_ids({1}).bucket_cap_mb(4).find_unused_parameters(true).broadcast_buffers(false);
  EXPECT_EQ(o.device_ids(), std::vector<int>{1});
  EXPECT_EQ(o.bucket_cap_mb(), 4u);
  EXPECT_TRUE(o.find_unused_parameters());
  EXPECT_FALSE(o.broadcast_buffers());
}

TEST(DistributedDataParallel, NeedsAProcessGroup) {
  ASSERT_FALSE(distributed::is_initialized());
  nn::Linear net(2, 2);
  EXPECT_THAT(error_of([&] { nn::DistributedDataParallel ddp(net); }),
              HasSubstr("init_process_group"));
  // Nothing was hooked: the module trains on alone.
  net(ones({1, 2})).sum().backward();
  EXPECT_TRUE(net.weight.grad().defined());
}

}  // namespace
}  // namespace tide
