#pragma once
// ProcessGroupBackend: what a communication engine (MPI, NCCL) provides to tide::distributed.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "distributed/launcher_env.h"
#include "tide/distributed/process_group.h"
#include "tide/tensor.h"

namespace tide::distributed::detail {

/// Which collective, in messages and in the metadata ranks compare (Note [Arrival round]).
enum class CollectiveKind : int { Barrier, AllReduce, Broadcast, AllGather, ReduceScatter };
const char* name(CollectiveKind kind);

/// Note [Process group backends]: the front end (process_group.cpp) checks what any backend
/// needs — an initialized group, defined contiguous tensors, matching dtypes and sizes, the
/// world size of the tensor lists — and the backend checks its devices. Every collective
/// returns a Work; the synchronous forms call wait() on it at once, and say so with
/// async_op = false (a backend may then run a cpu collective on the calling thread: Note
/// [Running a job on the caller]). Tensors are passed by value: the backend keeps them alive
/// until the collective finished.
class ProcessGroupBackend {
 public:
  virtual ~ProcessGroupBackend() = default;
  virtual std::string backend() const = 0;
  virtual int rank() const = 0;
  virtual int world_size() const = 0;
  virtual int local_rank() const = 0;

  virtual std::shared_ptr<Work> all_reduce(Tensor tensor, ReduceOp op, bool async_op) = 0;
  virtual std::shared_ptr<Work> broadcast(Tensor tensor, int src, bool async_op) = 0;
  virtual std::shared_ptr<Work> all_gather(std::vector<Tensor> outputs, Tensor input,
                                           bool async_op) = 0;
  virtual std::shared_ptr<Work> reduce_scatter(Tensor output, std::vector<Tensor> inputs,
                                               ReduceOp op, bool async_op) = 0;
  /// Blocks the host until every rank called it.
  virtual void barrier() = 0;
  /// Waits for the collectives already issued and releases the engine's resources.
  virtual void shutdown() = 0;
};

std::unique_ptr<ProcessGroupBackend> make_mpi_backend(const LauncherEnv& env,
                                                      std::chrono::milliseconds timeout);
/// serve_cpu: cpu tensors go to an mpi group beside it (the default backend on real GPUs, as
/// torch's "cpu:gloo,cuda:nccl"); without it they raise.
std::unique_ptr<ProcessGroupBackend> make_nccl_backend(const LauncherEnv& env,
                                                       std::chrono::milliseconds timeout,
                                                       bool serve_cpu);
/// Whether this build has the engine at all (built with Open MPI / with NCCL).
bool mpi_available();
bool nccl_available();

}  // namespace tide::distributed::detail
