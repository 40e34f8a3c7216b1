#pragma once
// `tide launch -n N -- COMMAND...`: starts N processes of COMMAND under Open MPI's mpirun, with
// the flags a tide job needs, so `tide launch -n 2 -- tide train --distributed` is all a user
// types (torchrun's role for torch.distributed).

#include <ostream>
#include <string>
#include <vector>

namespace tide::cli {

struct LaunchOptions {
  int processes = 1;
  /// Open MPI hostfile: one line per machine ("node1 slots=4"); empty: this machine only.
  std::string hostfile;
  /// Print the mpirun command instead of running it.
  bool dry_run = false;
  std::vector<std::string> command;
};

/// Note [tide launch]: the mpirun command line for `options`:
/// - `--allow-run-as-root` when running as root (containers; mpirun refuses root otherwise);
/// - `--oversubscribe` on one machine when N exceeds its cores (mpirun refuses that too);
/// - `--hostfile F` for several machines;
/// - `-x NAME` for each tide and CUDA variable set here (TIDE_*, CUDA_VISIBLE_DEVICES,
///   CUDA_LAUNCH_BLOCKING), so processes on other machines see them as local ones do.
/// Each process learns its rank, world size and local rank from mpirun's OMPI_COMM_WORLD_*.
std::vector<std::string> mpirun_command(const LaunchOptions& options);

/// Checks the options (one line to `err` and 2 on misuse), then replaces this process with
/// mpirun (its exit status is the job's), or prints the command with --dry-run.
int run_launch(const LaunchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tide::cli
