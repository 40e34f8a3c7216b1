// backends::cudnn's switches: torch's defaults, and each switch set and read back alone.

#include <gtest/gtest.h>

#include "tide/backends/cudnn.h"
#include "tide/detail/build_config.h"

namespace tide {
namespace {

TEST(CudnnSwitches, StartWithTorchsDefaults) {
  EXPECT_FALSE(backends::cudnn::benchmark());
  EXPECT_FALSE(backends::cudnn::deterministic());
  EXPECT_TRUE(backends::cudnn::allow_tf32());  // on for convolutions, as torch's
}

TEST(CudnnSwitches, EachIsSetAndReadBackAlone) {
  backends::cudnn::set_benchmark(true);
  EXPECT_TRUE(backends::cudnn::benchmark());
  EXPECT_FALSE(backends::cudnn::deterministic());
  backends::cudnn::set_benchmark(false);
  backends::cudnn::set_deterministic(true);
  EXPECT_TRUE(backends::cudnn::deterministic());
  backends::cudnn::set_deterministic(false);
  backends::cudnn::set_allow_tf32(false);
  EXPECT_FALSE(backends::cudnn::allow_tf32());
  EXPECT_FALSE(backends::cudnn::benchmark());
  backends::cudnn::set_allow_tf32(true);
}

TEST(CudnnSwitches, AvailabilityAndVersionFollowTheBuild) {
  EXPECT_EQ(backends::cudnn::is_available(), TIDE_BUILT_WITH_CUDNN == 1);
  if (backends::cudnn::is_available()) {
    EXPECT_GE(backends::cudnn::version(), 90000);  // cuDNN 9
  } else {
    EXPECT_EQ(backends::cudnn::version(), -1);
  }
}

}  // namespace
}  // namespace tide
