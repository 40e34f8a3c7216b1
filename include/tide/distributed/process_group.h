#pragma once
// torch.distributed for tide: one process per device (or per cpu worker), started by mpirun,
// joined into one process group that runs collectives on MPI (cpu tensors and simulated GPUs)
// or NCCL (real GPUs).
//
//   tide::distributed::init_process_group();          // rank and world size from mpirun
//   // The rank's GPU is the program's choice, as in torch; one visible GPU per process
//   // (CUDA_VISIBLE_DEVICES) or all of them, local_rank % device_count fits both.
//   tide::Device gpu(tide::kCUDA, get_local_rank() % tide::cuda::device_count());
//   tide::Tensor g = tide::ones({4}, tide::device(gpu));
//   tide::distributed::all_reduce(g);                  // every rank now holds world_size
//   tide::distributed::destroy_process_group();

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tide/error.h"
#include "tide/tensor.h"

namespace tide::distributed {

/// A collective failed in the communication engine or its peers: a peer did not arrive within
/// the timeout, or MPI/NCCL reported an error (torch.distributed.DistBackendError).
class DistBackendError : public Error {
 public:
  using Error::Error;
};

/// AVG is NCCL's ncclAvg on every backend: floating tensors are multiplied by 1/world_size
/// before the sum (so float16 values whose sum would overflow still average), integer sums
/// are divided by world_size afterwards, truncating toward zero; bool raises, as in torch.
enum class ReduceOp { SUM, AVG, MAX, MIN };
/// "SUM", "AVG", "MAX", "MIN" (torch's spelling).
const char* name(ReduceOp op);

/// Note [Process group]: one per process, as torch's default group. Rank and world size come
/// from the launcher (Open MPI's OMPI_COMM_WORLD_RANK / _SIZE, or RANK / WORLD_SIZE), the local
/// rank as Note [Launcher environment] says (LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_RANK,
/// SLURM_LOCALID, else the rank). backend "": on real GPUs cuda tensors on nccl and cpu
/// tensors on mpi (get_backend() says "cpu:mpi,cuda:nccl", as torch's "cpu:gloo,cuda:nccl"),
/// "mpi" for everything otherwise; "nccl" serves cuda tensors only. `timeout` bounds every
/// collective's wait for its peers: past it the collective fails with a DistBackendError
/// naming it and the ranks it waited for, and the process group is broken (every later
/// collective raises; the process should exit non-zero).
void init_process_group(const std::string& backend = "",
                        std::chrono::milliseconds timeout = std::chrono::minutes(30));
bool is_initialized();
/// This process's rank in [0, world size); raises before init_process_group.
int get_rank();
int get_world_size();
/// The rank among the processes on this machine (Note [Launcher environment]: LOCAL_RANK, else
/// mpirun's OMPI_COMM_WORLD_LOCAL_RANK, else SLURM_LOCALID, else the rank). As in torch it
/// picks nothing by itself: programs choose their GPU from it, e.g. cuda:(local_rank %
/// device_count), which is also right with one visible GPU per process.
int get_local_rank();
/// "mpi", "nccl" or "cpu:mpi,cuda:nccl" (Note [Process group]).
std::string get_backend();
/// Waits (on the host) until every rank has called it. On nccl, as torch's: an all-reduce of
/// one element on the group's GPU, after the GPU collectives issued before it, waited for.
void barrier();
/// Finishes pending collectives and shuts the group down; init_process_group may follow.
void destroy_process_group();

/// Note [Work]: an asynchronous collective (async_op = true), as torch's Work. For cpu tensors
/// wait() blocks the host until the collective finished and rethrows its error. For tensors on
/// a GPU (simulated or real) wait() makes the tensor's current stream wait for the collective
/// and returns at once, as torch's NCCL Work does; reading the result from the host then
/// synchronizes as any read does; on nccl, wait() raises DistBackendError once the group's
/// watchdog failed the collective (is_completed() is true then too). The collective keeps its
/// tensors alive until it finishes, memory the caching allocator does not own included
/// (from_blob, DLPack imports): a tensor dropped before wait() is released — its deleter runs —
/// only after the collective wrote it.
class Work {
 public:
  virtual ~Work() = default;
  virtual void wait() = 0;
  /// Whether the collective has finished (never blocks).
  virtual bool is_completed() = 0;
};

/// Note [Collectives]: every rank must call the same collectives in the same order with
/// tensors of the same dtype and numel (torch's contract; mismatches are raised — on mpi
/// before the data moves, on nccl by the group's watchdog, which then breaks the group — and
/// a peer that never comes fails the collective after the timeout). Any host thread may issue
/// collectives, several at once (Python threads with the GIL released): each call takes its
/// place in the rank's order as one step, and the order in which a rank's threads issue is
/// then the order every rank must match. A collective runs on its tensors' device; on nccl
/// every GPU collective of a process uses the device of its first one (one GPU per process).
/// Tensors must be contiguous; the collective runs after the work already enqueued on that
/// device's current stream, and later work on that stream runs after it.
void all_reduce(Tensor& tensor, ReduceOp op = ReduceOp::SUM);
std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op, bool async_op);
/// Copies rank `src`'s tensor into every rank's tensor.
void broadcast(Tensor& tensor, int src);
std::shared_ptr<Work> broadcast(Tensor& tensor, int src, bool async_op);
/// outputs[r] receives rank r's input; outputs holds world-size tensors shaped as input.
void all_gather(std::vector<Tensor>& outputs, const Tensor& input);
std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input,
                                 bool async_op);
/// output = reduce over ranks of inputs[rank]; inputs holds world-size tensors shaped as output.
void reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                    ReduceOp op = ReduceOp::SUM);
std::shared_ptr<Work> reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                                     ReduceOp op, bool async_op);

}  // namespace tide::distributed
