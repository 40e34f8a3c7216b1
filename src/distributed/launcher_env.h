#pragma once
// Where a process learns its rank: the launcher's environment.

#include <string>

namespace tide::distributed::detail {

struct LauncherEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  /// Which variables rank and world size came from, for messages: "mpirun
  /// (OMPI_COMM_WORLD_RANK/SIZE)" or "RANK/WORLD_SIZE".
  std::string source;
  /// Which variable the local rank came from, for messages: "LOCAL_RANK",
  /// "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", or "the rank" (none of them is set).
  std::string local_rank_source;
};

/// Note [Launcher environment]: rank and world size come from Open MPI's mpirun
/// (OMPI_COMM_WORLD_RANK and _SIZE, set in every process it starts) or from torchrun-style
/// RANK and WORLD_SIZE; mpirun's win when both are present (they are what MPI itself will
/// report). The local rank (the process's place among those on its machine) is the first of:
/// - LOCAL_RANK: what torchrun sets and torch programs read, or what a wrapper script sets on
///   purpose, so it wins even under mpirun (which never sets it; but a LOCAL_RANK exported in
///   the shell that starts mpirun reaches every process on that machine: don't export one);
/// - OMPI_COMM_WORLD_LOCAL_RANK: mpirun's (also `tide launch`'s);
/// - SLURM_LOCALID: srun's, for jobs that set RANK/WORLD_SIZE from SLURM_PROCID/SLURM_NTASKS;
/// - the rank itself: without any of them the job is taken to run on one machine.
/// The local rank only names a default (Note [The rank's device] in tools/tide/rank_device.h):
/// which GPU a rank uses is its program's choice, as in torch. Raises tide::Error naming the
/// variables when neither rank set is there, or naming the variable whose value is malformed
/// or out of range.
LauncherEnv read_launcher_env();

}  // namespace tide::distributed::detail
