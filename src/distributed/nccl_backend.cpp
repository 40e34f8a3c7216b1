// The "nccl" process group (real GPUs). Placeholder until the NCCL communicator lands.

#include "distributed/process_group_backend.h"
#include "tide/error.h"

namespace tide::distributed::detail {

bool nccl_available() { return false; }

std::unique_ptr<ProcessGroupBackend> make_nccl_backend(const LauncherEnv& /*env*/,
                                                       std::chrono::milliseconds /*timeout*/) {
  TIDE_CHECK(false, "[init_process_group] the nccl backend is not built in this tide; use "
             "backend \"mpi\"");
  return nullptr;
}

}  // namespace tide::distributed::detail
