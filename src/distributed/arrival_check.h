#pragma once
// check_arrival: the mpi group's arrival round for a collective whose data moves elsewhere.

#include <memory>

#include "distributed/collective_header.h"
#include "distributed/process_group_backend.h"

namespace tide::distributed::detail {

/// Note [Asynchronous arrival check]: for an engine that moves the data itself (NCCL on the
/// GPU) but wants the mpi group's guarantees — a peer that never arrives is named after the
/// timeout, a peer that called something else raises on every rank, naming both calls. The
/// check runs the arrival round of Note [Arrival round] (mpi/mpi_backend.cpp) for `header`
/// (its seq is ignored: the mpi group numbers it in its own issue order) on `mpi_group`'s
/// communication thread, in issue order with that group's other collectives, and returns at
/// once: the issuing thread never waits for other ranks. The Work's wait() blocks the host
/// until the check ended and raises its error (tide::Error for a mismatch, which leaves the
/// group usable; DistBackendError for a timeout, which breaks it); is_completed() polls.
/// Keep the Work with the collective it guards and surface its error at that collective's
/// wait(), or at the next collective. `collective` is a string literal naming the call.
/// `mpi_group` must be a group made by make_mpi_backend.
std::shared_ptr<Work> check_arrival(ProcessGroupBackend& mpi_group, const char* collective,
                                    const CollectiveHeader& header);

}  // namespace tide::distributed::detail
