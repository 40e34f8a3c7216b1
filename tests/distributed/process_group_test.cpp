// tide::distributed without mpirun: what happens before a process group exists, and how the
// launcher's environment is read (src/distributed/launcher_env.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
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
                                           "LOCAL_RANK", "SLURM_LOCALID"};
  std::vector<std::optional<std::string>> saved_;
};

using Vars = std::vector<std::pair<const char*, const char*>>;

/// read_launcher_env() with `vars` the only launcher variables set.
distributed::detail::LauncherEnv read_with(const Vars& vars) {
  LauncherVars scope;
  for (const auto& [name, value] : vars) scope.set(name, value);
  return distributed::detail::read_launcher_env();
}

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

TEST(LauncherEnv, MpirunsRankAndSizeWinOverRankAndWorldSize) {
  const auto env = read_with({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                              {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"RANK", "0"},
                              {"WORLD_SIZE", "2"}});
  EXPECT_EQ(env.rank, 3);
  EXPECT_EQ(env.world_size, 4);
  EXPECT_EQ(env.local_rank, 1);
  EXPECT_EQ(env.source, "mpirun (OMPI_COMM_WORLD_RANK/SIZE)");
}

// The local rank is the first of LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID and the
// rank, whichever variables gave the rank and world size.
TEST(LauncherEnv, TheLocalRankComesFromTheFirstOfItsVariablesThatIsSet) {
  struct Case {
    const char* setup;
    Vars vars;
    int local_rank;
    const char* from;
  };
  const std::vector<Case> cases = {
      // Plain mpirun (and tide launch) sets no LOCAL_RANK.
      {"plain mpirun",
       {{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_SIZE", "8"},
        {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}},
       1, "OMPI_COMM_WORLD_LOCAL_RANK"},
      {"LOCAL_RANK under mpirun",
       {{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_SIZE", "8"},
        {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"SLURM_LOCALID", "3"}, {"LOCAL_RANK", "2"}},
       2, "LOCAL_RANK"},
      {"Open MPI's before Slurm's",
       {{"RANK", "5"}, {"WORLD_SIZE", "8"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
        {"SLURM_LOCALID", "3"}},
       1, "OMPI_COMM_WORLD_LOCAL_RANK"},
      // srun: the job script sets RANK/WORLD_SIZE from SLURM_PROCID/SLURM_NTASKS.
      {"srun", {{"RANK", "5"}, {"WORLD_SIZE", "8"}, {"SLURM_LOCALID", "1"}}, 1, "SLURM_LOCALID"},
      {"torchrun", {{"RANK", "5"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}}, 1, "LOCAL_RANK"},
      {"no local rank variable", {{"RANK", "1"}, {"WORLD_SIZE", "2"}}, 1, "the rank"},
  };
  for (const Case& c : cases) {
    const auto env = read_with(c.vars);
    EXPECT_EQ(env.local_rank, c.local_rank) << c.setup;
    EXPECT_EQ(env.local_rank_source, c.from) << c.setup;
  }
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
  vars.set("RANK", "1");
  vars.set("SLURM_LOCALID", "-1");
  EXPECT_THAT(error_of([] { distributed::detail::read_launcher_env(); }),
              HasSubstr("expected the environment variable SLURM_LOCALID to be a non-negative "
                        "integer, found \"-1\""));
  vars.set("LOCAL_RANK", "2");
  EXPECT_THAT(error_of([] { distributed::detail::read_launcher_env(); }),
              AllOf(HasSubstr("expected a local rank in [0, 2) for world size 2, found 2 in "
                              "LOCAL_RANK"),
                    HasSubstr("unset LOCAL_RANK")));
}

TEST(ReduceOp, NamesAreTorchs) {
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::SUM), "SUM");
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::AVG), "AVG");
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::MAX), "MAX");
  EXPECT_STREQ(distributed::name(distributed::ReduceOp::MIN), "MIN");
}

}  // namespace
}  // namespace tide
