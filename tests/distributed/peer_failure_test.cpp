// A peer that hangs or dies never makes the job hang: real mpirun jobs of
// peer_failure_worker, checked for their exit status, what rank 0 reported, and that they
// ended long before ctest's timeout (the margins are minutes: nothing here is a timing race).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

struct JobResult {
  int exit_status = -1;  // mpirun's
  std::string output;
  double seconds = 0;
};

/// `mpirun_flags`: e.g. "-x TIDE_SIM_DEVICES=1" (mpirun passes the variable to both ranks).
JobResult run_job(const std::string& args, const std::string& mpirun_flags = "") {
  const std::string command = std::string(TIDE_MPIRUN_COMMAND) + " -np 2 " + mpirun_flags + " " +
                              TIDE_PEER_FAILURE_WORKER + " " + args + " 2>&1";
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  JobResult result;
  if (pipe == nullptr) return result;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

TEST(PeerFailure, AHangingRankMakesTheOthersRaiseNamingItAndTheJobEndsNonZero) {
  JobResult job = run_job("hang 2000 cpu");
  EXPECT_NE(job.exit_status, 0) << job.output;
  EXPECT_THAT(job.output,
              AllOf(HasSubstr("rank 0 caught DistBackendError: [all_reduce] rank 0 waited 2000 ms "
                              "(the process group's timeout) for rank 1 to reach collective #1 "
                              "(all_reduce(SUM) of 4 float32 elements)"),
                    HasSubstr("process group is now broken")));
  EXPECT_LT(job.seconds, 120) << "the hanging rank (asleep for 10 minutes) was not stopped";
}

TEST(PeerFailure, OnASimulatedGpuTheTimeoutIsTheCollectivesKernelError) {
  JobResult job = run_job("hang 2000 cuda", "-x TIDE_SIM_DEVICES=1");
  EXPECT_NE(job.exit_status, 0) << job.output;
  EXPECT_THAT(job.output, AllOf(HasSubstr("rank 0 caught KernelError"), HasSubstr("all_reduce"),
                                HasSubstr("waited 2000 ms"), HasSubstr("for rank 1")));
  EXPECT_LT(job.seconds, 120);
}

// A rank whose own stream never reaches the collective sends no header (Note [Arrival round]:
// a rank's header leaves only once its data is ready), so its peer never starts moving data
// with it: both raise after the timeout, naming what they waited for.
TEST(PeerFailure, ARankWhoseStreamStallsMakesBothRanksRaiseAfterTheTimeout) {
  JobResult job = run_job("stall 2000 cuda", "-x TIDE_SIM_DEVICES=1");
  EXPECT_NE(job.exit_status, 0) << job.output;
  EXPECT_THAT(job.output,
              AllOf(HasSubstr("rank 0 caught KernelError"),
                    HasSubstr("rank 0 waited 2000 ms (the process group's timeout) for its own "
                              "stream to reach collective #1"),
                    HasSubstr("rank 1 caught KernelError"),
                    HasSubstr("rank 1 waited 2000 ms (the process group's timeout) for rank 0 "
                              "to reach collective #1")));
  EXPECT_LT(job.seconds, 120) << job.output;
}

TEST(PeerFailure, AKilledRankEndsTheJobNonZeroBeforeTheTimeout) {
  // The collective's own timeout is 10 minutes: the job must end because Open MPI sees the
  // dead rank, not because rank 0 gave up.
  JobResult job = run_job("kill 600000 cpu");
  EXPECT_NE(job.exit_status, 0) << job.output;
  EXPECT_THAT(job.output, ::testing::Not(HasSubstr("finished without an error")));
  EXPECT_LT(job.seconds, 120) << job.output;
}

}  // namespace
