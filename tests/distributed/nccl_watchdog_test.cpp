// Note [NCCL watchdog]: its decisions, driven with a fake communicator, fake end events and
// fake arrival checks on a clock of the test's own. No GPU and no process group needed: this
// is the watchdog that guards the real NCCL group.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "distributed/nccl_watchdog.h"
#include "tide/tide.h"

namespace tide {
namespace {

using distributed::DistBackendError;
using distributed::detail::Arrival;
using distributed::detail::CommunicatorHealth;
using distributed::detail::NcclWatchdog;
using distributed::detail::WatchdogClock;
using distributed::detail::WatchedCollective;
using distributed::detail::WorkStatus;
using std::chrono::milliseconds;

class FakeCommunicator final : public CommunicatorHealth {
 public:
  std::string async_error() override { return error; }
  void abort() override { ++aborts; }

  std::string error;
  int aborts = 0;
};

/// One collective's fakes: its end event, its arrival check and the Work's failure.
struct FakeCollective {
  std::shared_ptr<std::atomic<bool>> finished = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<Arrival> arrival = std::make_shared<Arrival>();
  std::shared_ptr<WorkStatus> status = std::make_shared<WorkStatus>();
  std::shared_ptr<std::atomic<bool>> released = std::make_shared<std::atomic<bool>>(false);

  WatchedCollective watched(uint64_t seq, WatchdogClock::time_point issued) const {
    WatchedCollective c;
    c.seq = seq;
    c.name = "all_reduce";
    c.description = "all_reduce(SUM) of 4 float32 elements";
    c.issued = issued;
    c.finished = [f = finished] { return f->load(); };
    c.arrival = [a = arrival] { return *a; };
    c.status = status;
    // Memory the caching allocator does not own: only the watchdog's reference keeps it.
    static float data[4];
    c.tensors.push_back(from_blob(data, {4}, {}, [r = released](void*) { *r = true; }));
    return c;
  }
  void match() const { arrival->state = Arrival::State::Matched; }
};

const WatchdogClock::time_point t0 = WatchdogClock::now();

TEST(NcclWatchdog, RetiresFinishedCollectivesInIssueOrderAndOnlyThenReleasesTheirTensors) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 0, milliseconds(1000));
  FakeCollective first, second;
  dog.watch(first.watched(1, t0));
  dog.watch(second.watched(2, t0));
  first.match();
  second.match();
  *second.finished = true;  // the later one cannot retire past the earlier one
  dog.poll(t0 + milliseconds(1));
  EXPECT_EQ(dog.pending(), 2u);
  EXPECT_FALSE(*first.released);
  EXPECT_FALSE(*second.released);
  EXPECT_FALSE(second.status->settled()) << "a Work completes only with its verdict";
  *first.finished = true;
  dog.poll(t0 + milliseconds(2));
  EXPECT_EQ(dog.pending(), 0u);
  EXPECT_TRUE(*first.released);
  EXPECT_TRUE(*second.released);
  EXPECT_TRUE(first.status->settled());
  EXPECT_TRUE(second.status->settled());
  EXPECT_EQ(second.status->reason(), "");
  EXPECT_EQ(comm.aborts, 0);
  EXPECT_EQ(dog.broken_reason(), "");
  EXPECT_NO_THROW(dog.check_healthy("all_reduce"));
}

TEST(NcclWatchdog, AFinishedCollectiveStaysUntilItsArrivalCheckMatched) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 0, milliseconds(1000));
  FakeCollective c;
  dog.watch(c.watched(1, t0));
  *c.finished = true;
  dog.poll(t0 + milliseconds(1));
  EXPECT_EQ(dog.pending(), 1u);
  EXPECT_FALSE(c.status->settled()) << "ended, but not yet known to match the other ranks";
  c.match();
  dog.poll(t0 + milliseconds(2));
  EXPECT_EQ(dog.pending(), 0u);
  EXPECT_EQ(comm.aborts, 0);
}

TEST(NcclWatchdog, AMismatchedCallAbortsTheCommunicatorAndFailsEveryPendingWork) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 0, milliseconds(1000));
  FakeCollective bad, later;
  dog.watch(bad.watched(1, t0));
  dog.watch(later.watched(2, t0));
  const std::string mismatch = "[all_reduce] rank 0 called all_reduce(SUM) of 4 float32 "
                               "elements as collective #1, but rank 1 called broadcast(src=0)";
  *bad.arrival = Arrival{Arrival::State::Failed, mismatch};
  dog.poll(t0 + milliseconds(1));
  EXPECT_EQ(comm.aborts, 1);
  EXPECT_EQ(bad.status->reason(), mismatch);
  EXPECT_EQ(later.status->reason(), mismatch);
  EXPECT_EQ(dog.broken_reason(), mismatch);
  // Work queued behind an aborted kernel may still write them: they go once it ended.
  EXPECT_EQ(dog.pending(), 2u);
  EXPECT_FALSE(*bad.released);
  *bad.finished = true;
  dog.poll(t0 + milliseconds(2));
  EXPECT_TRUE(*bad.released);
  EXPECT_FALSE(*later.released);
  EXPECT_EQ(dog.pending(), 1u);
  try {
    dog.check_healthy("broadcast");
    FAIL() << "a broken group must raise";
  } catch (const DistBackendError& e) {
    EXPECT_NE(std::string(e.what()).find("[broadcast] the process group is broken: " + mismatch),
              std::string::npos)
        << e.what();
  }
  // A collective watched after the failure fails at once, and nothing is aborted twice.
  FakeCollective after;
  dog.watch(after.watched(3, t0));
  EXPECT_EQ(after.status->reason(), mismatch);
  dog.poll(t0 + milliseconds(3));
  EXPECT_EQ(comm.aborts, 1);
}

TEST(NcclWatchdog, AnEventQueryThatRaisesFailsTheGroupInsteadOfItsThread) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 2, milliseconds(1000));
  FakeCollective c;
  c.match();
  WatchedCollective w = c.watched(5, t0);
  w.finished = []() -> bool {
    throw Error("[Event::query] cudaErrorIllegalAddress: an illegal memory access was encountered");
  };
  dog.watch(std::move(w));
  EXPECT_NO_THROW(dog.poll(t0 + milliseconds(1)));
  EXPECT_EQ(comm.aborts, 1);
  EXPECT_NE(c.status->reason().find("[all_reduce] rank 2 could not query its collectives' "
                                    "progress while collective #5"),
            std::string::npos)
      << c.status->reason();
  EXPECT_NE(c.status->reason().find("illegal memory access"), std::string::npos);
  EXPECT_FALSE(*c.released) << "its end never seen: its tensors are kept";
}

TEST(NcclWatchdog, FailFromTheIssuingThreadBreaksTheGroupOnce) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 0, milliseconds(1000));
  FakeCollective c;
  dog.watch(c.watched(1, t0));
  dog.fail("[all_gather] collective #1 failed as it was issued: out of memory");
  dog.fail("a second reason is not kept");
  EXPECT_EQ(comm.aborts, 1);
  EXPECT_EQ(c.status->reason(),
            "[all_gather] collective #1 failed as it was issued: out of memory");
  EXPECT_THROW(dog.check_healthy("all_reduce"), DistBackendError);
}

TEST(NcclWatchdog, AnAsynchronousNcclErrorFailsTheGroupNamingTheOldestCollective) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 3, milliseconds(1000));
  FakeCollective c;
  dog.watch(c.watched(7, t0));
  c.match();
  dog.poll(t0 + milliseconds(1));
  EXPECT_EQ(comm.aborts, 0);
  comm.error = "remote process exited or there was a network error (6)";
  dog.poll(t0 + milliseconds(2));
  EXPECT_EQ(comm.aborts, 1);
  const std::string reason = c.status->reason();
  EXPECT_NE(reason.find("[all_reduce] NCCL reported an error on rank 3 while collective #7 "
                        "(all_reduce(SUM) of 4 float32 elements)"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("remote process exited"), std::string::npos) << reason;
}

TEST(NcclWatchdog, TheOldestUnfinishedCollectiveFailsTheGroupOnlyPastTheTimeout) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 1, milliseconds(500));
  FakeCollective c;
  dog.watch(c.watched(4, t0));
  c.match();
  dog.poll(t0 + milliseconds(500));
  EXPECT_EQ(comm.aborts, 0);
  EXPECT_EQ(c.status->reason(), "");
  dog.poll(t0 + milliseconds(501));
  EXPECT_EQ(comm.aborts, 1);
  EXPECT_NE(c.status->reason().find("[all_reduce] rank 1's collective #4 (all_reduce(SUM) of 4 "
                                     "float32 elements) did not finish within 500 ms"),
            std::string::npos)
      << c.status->reason();
}

TEST(NcclWatchdog, ItsThreadRetiresCollectivesAsTheyFinish) {
  FakeCommunicator comm;
  NcclWatchdog dog(comm, 0, std::chrono::minutes(10));
  dog.start(milliseconds(1));
  FakeCollective c;
  c.match();
  *c.finished = true;
  dog.watch(c.watched(1, WatchdogClock::now()));
  // No timing decides the verdict: a generous deadline only bounds a broken watchdog.
  const auto deadline = WatchdogClock::now() + std::chrono::seconds(30);
  // Retired first, released just after, outside the watchdog's lock: wait for both.
  while ((dog.pending() > 0 || !*c.released) && WatchdogClock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(1));
  }
  EXPECT_EQ(dog.pending(), 0u);
  EXPECT_TRUE(*c.released);
  dog.stop();
  EXPECT_EQ(comm.aborts, 0);
}

}  // namespace
}  // namespace tide
