#pragma once
// Where a process learns its rank: the launcher's environment.

#include <string>

namespace tide::distributed::detail {

struct LauncherEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  /// Which variables they came from, for messages: "mpirun (OMPI_COMM_WORLD_*)" or
  /// "RANK/WORLD_SIZE/LOCAL_RANK".
  std::string source;
};

/// Note [Launcher environment]: Open MPI's mpirun sets OMPI_COMM_WORLD_RANK, _SIZE and
/// _LOCAL_RANK in every process it starts; torchrun-style launchers set RANK, WORLD_SIZE and
/// LOCAL_RANK. mpirun's win when both are present (they are what MPI itself will report).
/// Without LOCAL_RANK the job is taken to run on one machine (local rank = rank). Raises
/// tide::Error naming the variables when neither set is there or a value is malformed.
LauncherEnv read_launcher_env();

}  // namespace tide::distributed::detail
