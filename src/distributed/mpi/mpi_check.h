#pragma once
// check_mpi: an MPI error code as a DistBackendError naming the call and the collective.

#include <mpi.h>

namespace tide::distributed::detail {

/// Throws DistBackendError "[collective] call failed: MPI's text" unless code is MPI_SUCCESS.
void check_mpi(int code, const char* call, const char* collective);

}  // namespace tide::distributed::detail
