#include "memory/allocator_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <string>

#include "tide/error.h"

namespace tide::memory {
namespace {

using ::testing::HasSubstr;
constexpr size_t kMiB = 1 << 20;

std::string parse_error(const std::string& spec) {
  try {
    AllocatorConfig::parse(spec);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected tide::Error for '" << spec << "'";
  return "";
}

TEST(AllocatorConfig, AnEmptySpecGivesTorchsDefaults) {
  AllocatorConfig c = AllocatorConfig::parse("");
  EXPECT_EQ(c.max_split_size, std::numeric_limits<size_t>::max());
  EXPECT_EQ(c.roundup_power2_divisions, 0);
  EXPECT_EQ(c.garbage_collection_threshold, 0.0);
  EXPECT_EQ(c.roundup_divisions_for(100 * kMiB), 0);
  EXPECT_EQ(c.to_string(), "");
}

TEST(AllocatorConfig, ParsesEveryKeyWithWhitespaceAroundTokens) {
  AllocatorConfig c = AllocatorConfig::parse(
      " max_split_size_mb : 128 ,garbage_collection_threshold: 0.6,  roundup_power2_divisions:4 ");
  EXPECT_EQ(c.max_split_size, 128 * kMiB);
  EXPECT_DOUBLE_EQ(c.garbage_collection_threshold, 0.6);
  EXPECT_EQ(c.roundup_power2_divisions, 4);
  EXPECT_EQ(c.roundup_divisions_for(1), 4);
  EXPECT_EQ(c.roundup_divisions_for(size_t{1} << 40), 4);
}

TEST(AllocatorConfig, ParsesTorchsBracketFormAsTorchDoes) {
  AllocatorConfig c = AllocatorConfig::parse("roundup_power2_divisions:[256:1,512:2,>:8]");
  EXPECT_EQ(c.roundup_power2_divisions, 0);
  EXPECT_EQ(c.roundup_divisions_for(kMiB), 1);          // below the first entry: its value
  EXPECT_EQ(c.roundup_divisions_for(300 * kMiB), 1);    // [256 MiB, 512 MiB): index 8
  // torch's parser fills ">" from the last entry's own index, so 512 MiB's 2 is replaced.
  EXPECT_EQ(c.roundup_divisions_for(600 * kMiB), 8);
  EXPECT_EQ(c.roundup_divisions_for(size_t{1} << 40), 8);
  AllocatorConfig plain = AllocatorConfig::parse("roundup_power2_divisions:[64:4]");
  EXPECT_EQ(plain.roundup_divisions_for(70 * kMiB), 4);  // index 6
  EXPECT_EQ(plain.roundup_divisions_for(200 * kMiB), 0);
}

TEST(AllocatorConfig, ToStringRoundTrips) {
  for (const char* spec : {"max_split_size_mb:64", "roundup_power2_divisions:[256:1,512:2,>:8]",
                           "garbage_collection_threshold:0.25,roundup_power2_divisions:2",
                           "garbage_collection_threshold:0.2533333333333333"}) {  // > 6 digits
    AllocatorConfig a = AllocatorConfig::parse(spec);
    AllocatorConfig b = AllocatorConfig::parse(a.to_string());
    EXPECT_EQ(a.max_split_size, b.max_split_size) << spec;
    EXPECT_EQ(a.roundup_power2_divisions, b.roundup_power2_divisions) << spec;
    EXPECT_EQ(a.roundup_power2_division_table, b.roundup_power2_division_table) << spec;
    EXPECT_DOUBLE_EQ(a.garbage_collection_threshold, b.garbage_collection_threshold) << spec;
  }
}

TEST(AllocatorConfig, ReadsTideCudaAllocConf) {
  setenv("TIDE_CUDA_ALLOC_CONF", "max_split_size_mb:30", 1);
  AllocatorConfig c = AllocatorConfig::from_env();
  unsetenv("TIDE_CUDA_ALLOC_CONF");
  EXPECT_EQ(c.max_split_size, 30 * kMiB);
  EXPECT_EQ(AllocatorConfig::from_env().max_split_size, std::numeric_limits<size_t>::max());
}

TEST(AllocatorConfig, RejectsAnUnknownKeyAndListsTheValidOnes) {
  std::string msg = parse_error("max_split_size_mb:64,expandable_segments:True");
  EXPECT_THAT(msg, HasSubstr("[TIDE_CUDA_ALLOC_CONF]"));
  EXPECT_THAT(msg, HasSubstr("Unrecognized CachingAllocator option: 'expandable_segments'"));
  EXPECT_THAT(msg, HasSubstr("valid options are max_split_size_mb, roundup_power2_divisions, "
                             "garbage_collection_threshold"));
}

TEST(AllocatorConfig, RejectsAMaxSplitSizeOfTwentyMiBOrLess) {
  EXPECT_THAT(parse_error("max_split_size_mb:20"), HasSubstr("max_split_size_mb too small, must be > 20 (found 20)"));
  EXPECT_EQ(AllocatorConfig::parse("max_split_size_mb:21").max_split_size, 21 * kMiB);
}

TEST(AllocatorConfig, RejectsANonIntegerMaxSplitSize) {
  EXPECT_THAT(parse_error("max_split_size_mb:12.5"),
              HasSubstr("max_split_size_mb expects a non-negative integer, found '12.5'"));
  EXPECT_THAT(parse_error("max_split_size_mb:-40"), HasSubstr("found '-40'"));
}

TEST(AllocatorConfig, RejectsAGarbageCollectionThresholdOutsideZeroToOne) {
  EXPECT_THAT(parse_error("garbage_collection_threshold:0"), HasSubstr("garbage_collect_threshold too small"));
  EXPECT_THAT(parse_error("garbage_collection_threshold:1.0"), HasSubstr("garbage_collect_threshold too big"));
  EXPECT_THAT(parse_error("garbage_collection_threshold:half"),
              HasSubstr("garbage_collection_threshold expects a number in (0, 1), found 'half'"));
}

TEST(AllocatorConfig, RejectsDivisionsThatAreNotAPowerOfTwoUpTo64) {
  EXPECT_THAT(parse_error("roundup_power2_divisions:3"), HasSubstr("divisions has to be power of 2 in [1, 64], found 3"));
  EXPECT_THAT(parse_error("roundup_power2_divisions:128"), HasSubstr("found 128"));
  EXPECT_THAT(parse_error("roundup_power2_divisions:0"), HasSubstr("found 0"));
  EXPECT_THAT(parse_error("roundup_power2_divisions:[256:3]"), HasSubstr("power of 2 (at most 64) or 0"));
  EXPECT_THAT(parse_error("roundup_power2_divisions:[300:2]"), HasSubstr("intervals have to be power of 2, found 300"));
  EXPECT_THAT(parse_error("roundup_power2_divisions:[256:2"), HasSubstr("missing ']'"));
}

TEST(AllocatorConfig, RejectsMalformedPairs) {
  EXPECT_THAT(parse_error("max_split_size_mb"), HasSubstr("expected ':' after 'max_split_size_mb', found the end"));
  EXPECT_THAT(parse_error("max_split_size_mb:"), HasSubstr("Error, expecting max_split_size_mb value"));
  EXPECT_THAT(parse_error("max_split_size_mb:64;garbage_collection_threshold:0.5"),
              HasSubstr("expects a non-negative integer, found '64;garbage_collection_threshold'"));
  EXPECT_THAT(parse_error("max_split_size_mb:64 roundup_power2_divisions:2"),
              HasSubstr("found '64roundup_power2_divisions'"));
  EXPECT_THAT(parse_error("max_split_size_mb:64:2"), HasSubstr("expected ',' after 'max_split_size_mb', found ':'"));
}

}  // namespace
}  // namespace tide::memory
