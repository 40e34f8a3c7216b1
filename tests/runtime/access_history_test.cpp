// AccessHistory (src/runtime/access_history.h), the stream sanitizer's memory of who touched
// which bytes: conflicts need overlapping bytes and a write, covered accesses are dropped,
// overlapping allocations merge into one bucket, and a free forgets what lay inside it.

#include <gtest/gtest.h>

#include <memory>

#include "runtime/access_history.h"

namespace tide::runtime {
namespace {

std::shared_ptr<const SanitizedOp> op_on(size_t slot, uint64_t seq) {
  return std::make_shared<const SanitizedOp>(
      SanitizedOp{LaunchInfo{"op", nullptr}, 0, slot, slot, seq, RawBacktrace{}});
}

MemoryAccess in(uintptr_t base, size_t size, uintptr_t lo, uintptr_t hi, bool write) {
  return MemoryAccess{base, size, lo, hi, write};
}

const auto never_ordered = [](const SanitizedOp&) { return false; };

TEST(AccessHistory, ReadsDoNotConflictWithReads) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1100, false), op_on(1, 1));
  EXPECT_EQ(h.find_race(in(1000, 100, 1000, 1100, false), never_ordered), nullptr);
  EXPECT_NE(h.find_race(in(1000, 100, 1050, 1060, true), never_ordered), nullptr);
}

TEST(AccessHistory, DisjointBytesOfOneAllocationDoNotConflict) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1050, true), op_on(1, 1));
  EXPECT_EQ(h.find_race(in(1000, 100, 1050, 1100, true), never_ordered), nullptr);
  EXPECT_NE(h.find_race(in(1000, 100, 1049, 1100, false), never_ordered), nullptr);
}

TEST(AccessHistory, AnOrderedAccessIsNoRace) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1100, true), op_on(1, 5));
  const auto after_5 = [](const SanitizedOp& op) { return op.seq <= 5; };
  EXPECT_EQ(h.find_race(in(1000, 100, 1000, 1100, true), after_5), nullptr);
}

TEST(AccessHistory, AWriteDropsTheAccessesItCovers) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1100, false), op_on(1, 1));
  h.record(in(1000, 100, 1000, 1050, false), op_on(2, 1));
  h.record(in(1000, 100, 1000, 1100, true), op_on(3, 1));
  EXPECT_EQ(h.size(), 1u);
}

TEST(AccessHistory, AReadDropsOnlyEarlierReadsOfItsOwnStream) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1050, false), op_on(1, 1));
  h.record(in(1000, 100, 1000, 1050, false), op_on(2, 1));
  h.record(in(1000, 100, 1000, 1100, false), op_on(1, 2));
  EXPECT_EQ(h.size(), 2u);
}

TEST(AccessHistory, OverlappingAllocationsMergeIntoOneBucket) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1100, true), op_on(1, 1));
  h.record(in(2000, 100, 2000, 2100, true), op_on(1, 2));
  // A from_blob view spanning both allocations conflicts with each.
  h.record(in(1050, 1000, 1050, 1060, false), op_on(1, 3));
  const RecordedAccess* r = h.find_race(in(1050, 1000, 1050, 2050, true), never_ordered);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(h.size(), 3u);
  EXPECT_NE(h.find_race(in(2000, 100, 2000, 2010, false), never_ordered), nullptr);
}

TEST(AccessHistory, AFreeForgetsWhatLayInsideIt) {
  AccessHistory h;
  h.record(in(1000, 100, 1000, 1100, true), op_on(1, 1));
  h.record(in(2000, 100, 2000, 2100, true), op_on(1, 2));
  h.forget(1000, 1100);
  EXPECT_EQ(h.size(), 1u);
  EXPECT_EQ(h.find_race(in(1000, 100, 1000, 1100, true), never_ordered), nullptr);
  EXPECT_NE(h.find_race(in(2000, 100, 2000, 2100, true), never_ordered), nullptr);
}

}  // namespace
}  // namespace tide::runtime
