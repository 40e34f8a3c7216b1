// Note [The rank's device] (tools/tide/rank_device.h): the GPU `tide train --distributed` picks
// when --device names none, for each way a cluster binds processes to GPUs.

#include "rank_device.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_of.h"

namespace tide::cli {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using test::error_of;

distributed::detail::LauncherEnv env_of(int rank, int local_rank, int world_size) {
  distributed::detail::LauncherEnv env;
  env.rank = rank;
  env.local_rank = local_rank;
  env.world_size = world_size;
  env.local_rank_source = "OMPI_COMM_WORLD_LOCAL_RANK";
  return env;
}

RankGpus gpus(int count, bool exclusive, bool same_for_every_process) {
  RankGpus g;
  g.count = count;
  g.exclusive = exclusive;
  g.same_for_every_process = same_for_every_process;
  return g;
}

TEST(RankDevice, EveryGpuVisibleToEveryProcessGivesCudaLocalRank) {
  for (bool exclusive : {false, true}) {
    const RankGpus two = gpus(2, exclusive, /*same_for_every_process=*/true);
    EXPECT_EQ(default_rank_device(env_of(0, 0, 4), two), Device(kCUDA, 0));
    EXPECT_EQ(default_rank_device(env_of(1, 1, 4), two), Device(kCUDA, 1));
    // The second machine's ranks count from 0 again.
    EXPECT_EQ(default_rank_device(env_of(3, 1, 4), two), Device(kCUDA, 1));
  }
}

// CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK: each process sees its own GPU as cuda:0,
// on real GPUs too (no rank shares one).
TEST(RankDevice, OneVisibleGpuPerProcessGivesCuda0ToEveryRank) {
  for (bool exclusive : {false, true}) {
    for (int local = 0; local < 4; ++local) {
      EXPECT_EQ(default_rank_device(env_of(local, local, 4), gpus(1, exclusive, false)),
                Device(kCUDA, 0));
    }
  }
}

// Simulated GPUs (the group on MPI): 4 ranks on 2 GPUs share them round-robin.
TEST(RankDevice, MoreRanksThanSimulatedGpusShareThem) {
  const RankGpus two = gpus(2, /*exclusive=*/false, /*same_for_every_process=*/true);
  EXPECT_EQ(default_rank_device(env_of(2, 2, 4), two), Device(kCUDA, 0));
  EXPECT_EQ(default_rank_device(env_of(3, 3, 4), two), Device(kCUDA, 1));
}

// Real GPUs (the group on NCCL, one rank per GPU), all visible to every process: a local rank
// past the count would share, and is refused naming the ways out.
TEST(RankDevice, MoreRanksThanGpusOnNcclAreRefusedNamingTheCount) {
  const RankGpus two = gpus(2, /*exclusive=*/true, /*same_for_every_process=*/true);
  EXPECT_THAT(error_of([&] { default_rank_device(env_of(2, 2, 4), two); }),
              AllOf(HasSubstr("--distributed: rank 2 has local rank 2 (from "
                              "OMPI_COMM_WORLD_LOCAL_RANK) and would share cuda:0 with local "
                              "rank 0: every process on this machine sees the same 2 cuda "
                              "devices and NCCL runs at most one rank per GPU"),
                    HasSubstr("start at most 2 processes per machine"),
                    HasSubstr("CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK"),
                    HasSubstr("--device cpu")));
}

TEST(RankDevice, NoCudaDeviceIsRefused) {
  EXPECT_THAT(error_of([] { default_rank_device(env_of(1, 1, 2), gpus(0, false, true)); }),
              HasSubstr("--distributed --device cuda: rank 1 has no cuda device"));
}

}  // namespace
}  // namespace tide::cli
