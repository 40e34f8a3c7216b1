// The launcher's environment as a real mpirun sets it (Note [Launcher environment]): unit tests
// of the parsing, with the variables set by hand, are in process_group_test.cpp.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tide/cuda.h"
#include "tide/distributed/process_group.h"
#include "tide/testing/sim_hooks.h"

namespace tide {
namespace {

int env_int(const char* name) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : -1;
}

// Plain mpirun sets no LOCAL_RANK: the local rank is Open MPI's.
TEST(LauncherEnvUnderMpirun, WithoutLocalRankTheLocalRankIsOpenMpis) {
  if (std::getenv("LOCAL_RANK") != nullptr) GTEST_SKIP() << "LOCAL_RANK is set for this job";
  ASSERT_NE(std::getenv("OMPI_COMM_WORLD_LOCAL_RANK"), nullptr) << "not started by mpirun";
  EXPECT_EQ(distributed::get_rank(), env_int("OMPI_COMM_WORLD_RANK"));
  EXPECT_EQ(distributed::get_world_size(), env_int("OMPI_COMM_WORLD_SIZE"));
  EXPECT_EQ(distributed::get_local_rank(), env_int("OMPI_COMM_WORLD_LOCAL_RANK"));
}

// The usual cluster binding, CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK (ctest's
// mpi2_sim2_gpu_per_rank): each rank sees one GPU, its own, as cuda:0.
TEST(LauncherEnvUnderMpirun, WithOneVisibleGpuPerRankEachRanksCuda0IsItsOwn) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::string local = std::to_string(distributed::get_local_rank());
  if (visible == nullptr || visible != local || !testing::sim_active()) {
    GTEST_SKIP() << "needs CUDA_VISIBLE_DEVICES set to the local rank, on simulated GPUs";
  }
  EXPECT_EQ(cuda::device_count(), 1);
  EXPECT_EQ(cuda::get_device_properties(0).name, "tide simulated GPU (physical " + local + ")");
}

}  // namespace
}  // namespace tide
