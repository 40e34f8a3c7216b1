#include "memory/oom_message.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tide::memory {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(FormatSize, UsesTorchsUnitsAndTwoDecimals) {
  EXPECT_EQ(format_size(0), "0 bytes");
  EXPECT_EQ(format_size(1024), "1024 bytes");
  EXPECT_EQ(format_size(1536), "1.50 KiB");
  EXPECT_EQ(format_size(1048576), "1024.00 KiB");
  EXPECT_EQ(format_size(20971520), "20.00 MiB");
  EXPECT_EQ(format_size(3221225472ULL), "3.00 GiB");
}

TEST(OomMessage, SuggestsMaxSplitSizeOnlyWhenFragmentationIsTheCause) {
  OomInfo info;
  info.requested = info.alloc_size = 10 << 20;
  info.capacity = 24 << 20;
  info.device_free = 4 << 20;
  info.allocated = 9 << 20;
  info.reserved = 20 << 20;
  info.largest_free_block = 9 << 20;
  info.free_blocks = 2;
  EXPECT_THAT(oom_message(info), HasSubstr("(fragmentation)"));
  info.largest_free_block = 11 << 20;  // a block was large enough: not fragmentation
  EXPECT_THAT(oom_message(info), Not(HasSubstr("(fragmentation)")));
}

TEST(OomMessage, NamesTheSegmentSizeWhenItDiffersFromTheRequest) {
  OomInfo info;
  info.requested = 4096;
  info.alloc_size = 2 << 20;
  info.capacity = 1 << 30;
  std::string msg = oom_message(info);
  EXPECT_THAT(msg, HasSubstr("Tried to allocate 4.00 KiB (4096 bytes; needs a new segment of 2.00 MiB)"));
  EXPECT_THAT(msg, HasSubstr("in 0 free cached blocks"));
}

}  // namespace
}  // namespace tide::memory
