// Builds without Open MPI: the "mpi" backend says so when asked for.

#include "distributed/arrival_check.h"
#include "distributed/process_group_backend.h"
#include "tide/error.h"

namespace tide::distributed::detail {

bool mpi_available() { return false; }

std::unique_ptr<ProcessGroupBackend> make_mpi_backend(const LauncherEnv& /*env*/,
                                                      std::chrono::milliseconds /*timeout*/) {
  TIDE_CHECK(false, "[init_process_group] this tide was built without MPI, so the mpi backend "
             "is missing; install Open MPI (apt-get install libopenmpi-dev openmpi-bin) and "
             "rebuild");
  return nullptr;
}

std::shared_ptr<Work> check_arrival(ProcessGroupBackend& /*mpi_group*/, const char* collective,
                                    const CollectiveHeader& /*header*/) {
  TIDE_CHECK(false, "[", collective, "] this tide was built without MPI, so there is no mpi "
             "group to check arrivals on; install Open MPI and rebuild");
  return nullptr;
}

}  // namespace tide::distributed::detail
