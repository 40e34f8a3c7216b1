// Device error records (Note [Device error records]): the host-side decoding a real GPU's
// synchronizing calls use, checked without a GPU.

#include "backends/cuda/error_record.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/error_of.h"
#include "tide/tide.h"

using namespace tide;
using namespace tide::backends::cuda;
using kernels::IndexErrorKind;

TEST(ErrorRecord, AnEmptyRecordDecodesToNothing) {
  EXPECT_FALSE(decode_error_record(empty_error_record()).has_value());
  EXPECT_EQ(empty_error_record().position, INT64_MAX);  // any real position is smaller
}

TEST(ErrorRecord, TokensRoundTripStreamAndSequence) {
  for (uint64_t stream : {0ull, 1ull, 33ull, 64ull, (1ull << 23) - 1}) {
    for (uint64_t seq : {1ull, 2ull, 1000000ull, (1ull << kTokenSeqBits) - 1}) {
      const uint64_t token = launch_token(stream, seq);
      EXPECT_NE(token, 0u);
      EXPECT_EQ(token_stream_id(token), stream);
      EXPECT_EQ(token_seq(token), seq);
    }
  }
  // Distinct launches get distinct tokens, also across streams with equal sequence numbers.
  EXPECT_NE(launch_token(1, 7), launch_token(2, 7));
  EXPECT_NE(launch_token(1, 7), launch_token(1, 8));
}

TEST(ErrorRecord, EveryStreamIdTheRuntimeHandsOutFitsAToken) {
  // Default stream 0, 32 normal pool streams 1..32, 32 high-priority ones 33..64.
  for (uint64_t id = 0; id <= 64; ++id) EXPECT_EQ(token_stream_id(launch_token(id, 5)), id);
}

TEST(ErrorRecord, IndexSelectRecordsReadAsTheCpuError) {
  DeviceErrorRecord r = empty_error_record();
  r.token = launch_token(3, 42);
  r.kind = static_cast<int32_t>(IndexErrorKind::IndexSelect);
  r.position = 1;
  r.value = 7;
  r.bound = 4;
  r.aux = 0;  // dim
  const auto decoded = decode_error_record(r);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->stream_id, 3u);
  EXPECT_EQ(decoded->seq, 42u);
  // The same words the cpu kernel raises for the same bad index.
  const Tensor x = arange(8, TensorOptions().dtype(kFloat32)).reshape({4, 2});
  const Tensor idx = tensor({0, 7});
  const std::string cpu = test::error_of([&] { (void)index_select(x, 0, idx); });
  EXPECT_EQ(decoded->message, cpu);
  EXPECT_NE(cpu.find("index 7 (at position 1 of index)"), std::string::npos) << cpu;
}

TEST(ErrorRecord, NllLossRecordsCarryTheIgnoreIndex) {
  DeviceErrorRecord r = empty_error_record();
  r.token = launch_token(0, 1);
  r.kind = static_cast<int32_t>(IndexErrorKind::NllLossTarget);
  r.position = 2;
  r.value = -3;
  r.bound = 5;
  r.aux = -100;
  const auto decoded = decode_error_record(r);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->message,
            "[nll_loss] Target -3 is out of bounds. Class indices must lie in [0, 5) for 5 "
            "classes (or equal ignore_index -100); found at position 2 of target");
}

TEST(ErrorRecord, ATakenRecordIsEmptyButRemembersItsLaunch) {
  // Note [Device error records]: a take leaves a tombstone so late threads of the reported
  // launch do not report it again, and the host does not decode it a second time.
  const uint64_t token = launch_token(2, 9);
  DeviceErrorRecord r = empty_error_record();
  r.token = token | kTakenBit;
  r.position = 0;
  EXPECT_TRUE(token_is_empty(r.token));
  EXPECT_FALSE(decode_error_record(r).has_value());
  EXPECT_EQ(token_stream_id(r.token), 2u);
  EXPECT_EQ(token_seq(r.token & ~kTakenBit), 9u);
  EXPECT_FALSE(token_is_empty(token));
}

// The reporting threads' and the take's steps under the record's lock (report_locked,
// take_locked): every interleaving of whole critical sections, checked on the host.

namespace {
constexpr int32_t kNll = static_cast<int32_t>(IndexErrorKind::NllLossTarget);

ReportOutcome report(DeviceErrorRecord& r, uint64_t launch, int64_t position, int64_t value) {
  return report_locked(r, launch, kNll, position, value, 10, -100);
}
}  // namespace

TEST(ErrorRecord, ATakeBetweenTwoLaunchesReportsFailingNeverSeesAnUnfilledClaim) {
  // Launch A claims and fills in one step; launch B's report is dropped while A's waits; the
  // take that follows decodes A's real bad index — not "index 0 out of bounds [0, 0)".
  const uint64_t a = launch_token(1, 5), b = launch_token(2, 8);
  DeviceErrorRecord r = empty_error_record();
  EXPECT_EQ(report(r, a, 9, -1), ReportOutcome::Filled);
  EXPECT_EQ(report(r, b, 3, 77), ReportOutcome::OtherPending);
  const auto decoded = decode_error_record(take_locked(r));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->seq, 5u);
  EXPECT_EQ(decoded->message,
            "[nll_loss] Target -1 is out of bounds. Class indices must lie in [0, 10) for 10 "
            "classes (or equal ignore_index -100); found at position 9 of target");
  // B reports again after the take (its flag raise brought the host): now B owns the record.
  EXPECT_EQ(report(r, b, 3, 77), ReportOutcome::Filled);
  const auto second = decode_error_record(take_locked(r));
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->seq, 8u);
  EXPECT_NE(second->message.find("Target 77"), std::string::npos) << second->message;
}

TEST(ErrorRecord, EveryNonEmptyRecordATakeSeesIsFilled) {
  // Whatever the order of the critical sections, a take returns either nothing or a record
  // whose position is a real one: claim and fill are one step.
  const uint64_t a = launch_token(1, 1), b = launch_token(1, 2);
  const std::vector<std::pair<uint64_t, int64_t>> reports = {{a, 4}, {b, 1}, {a, 2}, {b, 0}};
  for (size_t take_at = 0; take_at <= reports.size(); ++take_at) {
    DeviceErrorRecord r = empty_error_record();
    for (size_t i = 0; i <= reports.size(); ++i) {
      if (i == take_at) {
        const DeviceErrorRecord taken = take_locked(r);
        if (!token_is_empty(taken.token)) {
          EXPECT_NE(taken.position, INT64_MAX) << "take after " << take_at << " reports";
        }
      }
      if (i < reports.size()) report(r, reports[i].first, reports[i].second, 99);
    }
  }
}

TEST(ErrorRecord, TheSmallestPositionOfTheOwningLaunchWins) {
  const uint64_t a = launch_token(3, 3);
  DeviceErrorRecord r = empty_error_record();
  EXPECT_EQ(report(r, a, 7, 11), ReportOutcome::Filled);
  EXPECT_EQ(report(r, a, 9, 12), ReportOutcome::EarlierKept);
  EXPECT_EQ(report(r, a, 2, 13), ReportOutcome::Filled);
  EXPECT_EQ(r.position, 2);
  EXPECT_EQ(r.value, 13);
}

TEST(ErrorRecord, LateThreadsOfATakenLaunchDoNotReportItTwice) {
  const uint64_t a = launch_token(1, 5);
  DeviceErrorRecord r = empty_error_record();
  report(r, a, 4, -1);
  (void)take_locked(r);
  EXPECT_EQ(report(r, a, 1, -1), ReportOutcome::AlreadyTaken);
  EXPECT_FALSE(decode_error_record(take_locked(r)).has_value());
  // Another launch may claim the tombstone.
  EXPECT_EQ(report(r, launch_token(1, 6), 0, -2), ReportOutcome::Filled);
}

TEST(ErrorRecord, ReportsThatCannotChangeTheRecordSkipTheLock) {
  // Note [Many bad elements]: the lock-free pre-check.
  const uint64_t a = launch_token(1, 5), b = launch_token(2, 5);
  EXPECT_TRUE(report_is_redundant(a, 3, a, 3));               // same launch, same position
  EXPECT_TRUE(report_is_redundant(a, 3, a, 8));               // same launch, earlier kept
  EXPECT_FALSE(report_is_redundant(a, 3, a, 2));              // an earlier position: report
  EXPECT_TRUE(report_is_redundant(a | kTakenBit, INT64_MAX, a, 0));  // already taken
  EXPECT_FALSE(report_is_redundant(0, INT64_MAX, a, 5));      // empty: claim it
  EXPECT_FALSE(report_is_redundant(b, 1, a, 5));              // another launch: raise the flag
  EXPECT_FALSE(report_is_redundant(b | kTakenBit, INT64_MAX, a, 5));  // a tombstone: claim
}
