// tide::distributed without mpirun: what happens before a process group exists, and how the
// launcher's environment is read (src/distributed/launcher_env.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "distributed/launcher_env.h"
#include "support/error_of.h"
#include "tide/distributed/process_group.h"
#include "tide/tide.h"

namespace tide {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using test::error_of;

/// Sets the launcher variables for one test and restores them after.
class LauncherVars {
 public:
  LauncherVars() {
    for (const char* name : kNames) {
      const char* value = std::getenv(name);
      saved_.push_back(value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
  }
  ~LauncherVars() {
    for (size_t i = 0; i < saved_.size(); ++i) {
      if (saved_[i]) {
        setenv(kNames[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kNames[i]);
      }
    }
  }
  void set(const char* name, const char* value) { setenv(name, value, 1); }

 private:
  static constexpr const char* kNames[] = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                                           "OMPI_COMM_WORLD_LOCAL_RANK", "RANK", "WORLD_SIZE",
                                           "LOCAL_RANK"};
  std::vector<std::optional<std::string>> saved_;
};

TEST(ProcessGroup, CollectivesBeforeInitRaiseNamingTheFix) {
  ASSERT_FALSE(distributed::is_initialized());
  Tensor t = ones({2});
  std::vector<Tensor> list = {zeros({2})};
  for (auto call : std::vector<std::function<void()>>{
           [&] { distributed::all_reduce(t); }, [&] { distributed::broadcast(t, 0); },
           [&] { distributed::all_gather(list, t); },
           [&] { distributed::reduce_scatter(t, list); }, [] { distributed::barrier(); },
           [] { distributed::get_rank(); }, [] { distributed::get_world_size(); }}) {
    EXPECT_THAT(error_of(call), AllOf(HasSubstr("expected an initialized process group, found none"),
                                      HasSubstr("init_process_group()"), HasSubstr("mpirun")));
  }
  EXPECT_THAT(error_of([] { distributed::destroy_process_group(); }),
              HasSubstr("[destroy_process_group] expected an initialized process group"));
}

TEST(ProcessGroup, InitWithoutALauncherRaises) {
  LauncherVars vars;
  EXPECT_THAT(error_of([] { distributed::init_process_group("mpi"); }),
              AllOf(HasSubstr("OMPI_COMM_WORLD_RANK"), HasSubstr("RANK and WORLD_SIZE"),
                    HasSubstr("tide launch -n N")));
  EXPECT_FALSE(distributed::is_initialized());
}

TEST(ProcessGroup, UnknownBackendAndBadTimeoutRaise) {
  EXPECT_THAT(error_of([] { distributed::init_process_group("gloo"); }),
              HasSubstr("expected backend \"mpi\", \"nccl\" or \"\""));
  EXPECT_THAT(error_of([] { distributed::init_process_group("mpi", std::chrono::milliseconds(0)); }),
              HasSubstr("expected a positive timeout, found 0 ms"));
  EXPECT_FALSE(distributed::is_initialized());
}

TEST(LauncherEnv, ReadsMpirunsVariablesFirst) {
  LauncherVars vars;
  vars.set("OMPI_COMM_WORLD_RANK", "3");
  vars.set("OMPI_COMM_WORLD_SIZE", "4");
  vars.set("OMPI_COMM_WORLD_LOCAL_RANK", "1");
  vars.set("RANK", "0");
  vars.set("WORLD_SIZE", "2");
  distributed::detail::LauncherEnv env = distributed::detail::read_launcher_env();
  EXPECT_EQ(env.rank, 3);
  EXPECT_EQ(env.world_size, 4);
  EXPECT_EQ(env.local_rank, 1);
}

TEST(LauncherEnv, TorchrunVariablesWithLocalRankDefaultingToRank) {
  LauncherVars vars;
  vars.set("RANK", "1");
  vars.set("WORLD_SIZE", "2");
  distributed::detail::LauncherEnv env = distributed::detail::read_launcher_env();
  EXPECT_EQ(env.rank, 1);
  EXPECT_EQ(env.world_size, 2);
  EXPECT_EQ(env.local_rank, 1);
}

TEST(LauncherEnv, MalformedOrOutOfRangeValuesRaise) {
  LauncherVars vars;
  vars.set("RANK", "one");
  vars.set("WORLD_SIZE", "2");
  EXPECT_THAT(error_of([] { distributed::detail::read_launcher_env(); }),
              HasSubstr("expected the environment variable RANK to be a non-negative integer, "
                        "found \"one\""));
  vars.set("RANK", "2");
  EXPECT_THAT(error_of([] { distributed::detail::read_launcher_env(); }),
              HasSubstr("expected a rank in [0, 2) for world size 2"));
}

TEST(ReduceOp, NamesAreTorchs) {
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::SUM), "SUM");
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::AVG), "AVG");
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::MAX), "MAX");
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::MIN), "MIN");
}

}  // namespace
}  // namespace tide
