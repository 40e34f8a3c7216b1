#include "tide/error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace tide;
using ::testing::HasSubstr;

namespace {
int message_builds = 0;
int counted(int v) {
  ++message_builds;
  return v;
}
}  // namespace

TEST(TideCheck, BuildsTheMessageOnlyOnFailure) {
  message_builds = 0;
  TIDE_CHECK(true, "never built ", counted(1));
  EXPECT_EQ(message_builds, 0);
  EXPECT_THROW(TIDE_CHECK(false, "built ", counted(2)), Error);
  EXPECT_EQ(message_builds, 1);
}

TEST(TideCheck, ThrowsNamedSubclassWithConcatenatedMessage) {
  try {
    TIDE_CHECK_T(OutOfMemoryError, 1 + 1 == 3, "[f] asked for ", 42, " bytes");
    FAIL();
  } catch (const OutOfMemoryError& e) {
    EXPECT_STREQ(e.what(), "[f] asked for 42 bytes");
  }
}

TEST(InternalAssert, NamesTheConditionAndSaysItIsABug) {
  try {
    TIDE_INTERNAL_ASSERT(2 < 1, "context ", 7);
    FAIL();
  } catch (const InternalError& e) {
    EXPECT_THAT(e.what(), HasSubstr("2 < 1"));
    EXPECT_THAT(e.what(), HasSubstr("context 7"));
    EXPECT_THAT(e.what(), HasSubstr("bug in tide"));
  }
}

TEST(Errors, FormAHierarchyUnderTideError) {
  EXPECT_THROW(throw KernelError("x"), Error);
  EXPECT_THROW(throw OutOfMemoryError("x"), Error);
  EXPECT_THROW(throw Error("x"), std::runtime_error);
}
