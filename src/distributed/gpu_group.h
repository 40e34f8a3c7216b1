#pragma once
// The GPU process group's logic (nccl_backend.cpp) over any device communicator: NCCL's in
// the "nccl" backend, a fake on simulated GPUs in tests (tests/distributed/gpu_group_mpi_test.cpp),
// so that everything but NCCL itself is tested without a GPU.

#include <chrono>
#include <functional>
#include <memory>

#include "backends/device_communicator.h"
#include "backends/nccl_communicator.h"
#include "distributed/launcher_env.h"
#include "distributed/process_group_backend.h"

namespace tide::distributed::detail {

/// How a GPU group makes its communicator, at its first GPU collective.
struct CommunicatorMaker {
  /// The id rank 0 makes and broadcasts to the others (ncclGetUniqueId).
  std::function<backends::NcclUniqueId()> unique_id;
  std::function<std::unique_ptr<backends::DeviceCommunicator>(
      int device, int rank, int world_size, const backends::NcclUniqueId& id,
      std::chrono::milliseconds timeout)>
      make;
};

/// The nccl backend's process group with `maker`'s communicators; see make_nccl_backend.
std::unique_ptr<ProcessGroupBackend> make_gpu_group(const LauncherEnv& env,
                                                    std::chrono::milliseconds timeout,
                                                    bool serve_cpu, CommunicatorMaker maker);

}  // namespace tide::distributed::detail
