// The "nccl" process group: collectives between real GPUs on NCCL, bootstrapped and guarded by
// the mpi group (the NCCL id travels by MPI broadcast; each collective's arrival round runs
// on MPI first, so a missing peer or a mismatched call raises instead of hanging the GPU).

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/nccl_communicator.h"
#include "distributed/process_group_backend.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::distributed::detail {
namespace {

/// Note [NCCL work]: as torch's ProcessGroupNCCL, each collective runs on the group's own
/// stream, after the work already enqueued on the tensor's current stream (the comm stream
/// waits for it), so communication overlaps the caller's later work; wait() makes the caller's
/// current stream wait for the collective's end event. The tensors' memory is recorded as used
/// by the comm stream (no manual record_stream: Note [Stream uses] in ops/dispatch.h).
class NcclWork final : public Work {
 public:
  NcclWork(cuda::Event done, int device) : done_(std::move(done)), device_(device) {}
  void wait() override { done_.wait(cuda::current_stream(device_)); }
  bool is_completed() override { return done_.query(); }

 private:
  cuda::Event done_;
  int device_;
};

backends::NcclOp nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::SUM: return backends::NcclOp::Sum;
    case ReduceOp::AVG: return backends::NcclOp::Avg;
    case ReduceOp::MAX: return backends::NcclOp::Max;
    case ReduceOp::MIN: return backends::NcclOp::Min;
  }
  return backends::NcclOp::Sum;
}

class NcclBackend final : public ProcessGroupBackend {
 public:
  NcclBackend(const LauncherEnv& env, std::chrono::milliseconds timeout) : env_(env) {
    TIDE_CHECK(backends::nccl_compiled(), "[init_process_group] this tide was built without "
               "NCCL, so the nccl backend is missing; use backend \"mpi\"");
    TIDE_CHECK(runtime::native_kernels(), "[init_process_group] the nccl backend runs on real "
               "GPUs, found ", cuda::device_count(), " simulated or no cuda devices; use backend "
               "\"mpi\" (the default without real GPUs)");
    const int count = cuda::device_count();
    TIDE_CHECK(env.local_rank < count, "[init_process_group] local rank ", env.local_rank,
               " uses cuda:", env.local_rank, ", found ", count, " cuda devices on this machine; "
               "start at most ", count, " processes per machine");
    device_ = env.local_rank;
    mpi_ = make_mpi_backend(env, timeout);
    Tensor id = zeros({128}, dtype(kUInt8));
    if (env.rank == 0) {
      backends::NcclUniqueId made = backends::nccl_unique_id();
      std::memcpy(id.raw_data(), made.bytes.data(), made.bytes.size());
    }
    mpi_->broadcast(id, 0)->wait();
    backends::NcclUniqueId shared;
    std::memcpy(shared.bytes.data(), id.raw_data(), shared.bytes.size());
    comm_ = std::make_unique<backends::NcclCommunicator>(device_, env.rank, env.world_size, shared);
    comm_stream_ = std::make_unique<cuda::Stream>(device_);
  }

  std::string backend() const override { return "nccl"; }
  int rank() const override { return env_.rank; }
  int world_size() const override { return env_.world_size; }
  int local_rank() const override { return env_.local_rank; }

  std::shared_ptr<Work> all_reduce(Tensor tensor, ReduceOp op) override {
    arrive(CollectiveKind::AllReduce, tensor, static_cast<int64_t>(op), -1, "all_reduce");
    return enqueue({tensor}, [&](void* stream) {
      comm_->all_reduce(tensor.raw_data(), tensor.numel(), tensor.dtype(), nccl_op(op), stream);
    });
  }

  std::shared_ptr<Work> broadcast(Tensor tensor, int src) override {
    arrive(CollectiveKind::Broadcast, tensor, -1, src, "broadcast");
    return enqueue({tensor}, [&](void* stream) {
      comm_->broadcast(tensor.raw_data(), tensor.numel(), tensor.dtype(), src, stream);
    });
  }

  std::shared_ptr<Work> all_gather(std::vector<Tensor> outputs, Tensor input) override {
    arrive(CollectiveKind::AllGather, input, -1, -1, "all_gather");
    std::vector<Tensor> used = outputs;
    used.push_back(input);
    return enqueue(used, [&](void* stream) {
      // NCCL gathers into one buffer; it is made and read on the comm stream.
      Tensor flat = empty({env_.world_size * input.numel()},
                          TensorOptions().dtype(input.dtype()).device(input.device()));
      comm_->all_gather(input.raw_data(), flat.raw_data(), input.numel(), input.dtype(), stream);
      for (int r = 0; r < env_.world_size; ++r) {
        outputs[r].copy_(flat.narrow(0, r * input.numel(), input.numel()).view(outputs[r].sizes()));
      }
    });
  }

  std::shared_ptr<Work> reduce_scatter(Tensor output, std::vector<Tensor> inputs,
                                       ReduceOp op) override {
    arrive(CollectiveKind::ReduceScatter, output, static_cast<int64_t>(op), -1, "reduce_scatter");
    std::vector<Tensor> used = inputs;
    used.push_back(output);
    return enqueue(used, [&](void* stream) {
      std::vector<Tensor> flat_inputs;
      for (const Tensor& t : inputs) flat_inputs.push_back(t.flatten());
      Tensor flat = cat(flat_inputs);
      comm_->reduce_scatter(flat.raw_data(), output.raw_data(), output.numel(), output.dtype(),
                            nccl_op(op), stream);
    });
  }

  void barrier() override { mpi_->barrier(); }

  void shutdown() override {
    comm_stream_->synchronize();
    comm_.reset();
    mpi_->shutdown();
  }

 private:
  void check_device(const Tensor& t, const char* collective) const {
    TIDE_CHECK(t.device() == Device(kCUDA, device_), "[", collective, "] the nccl backend "
               "communicates tensors on this rank's device cuda:", device_, " (its local rank), "
               "found a tensor on ", t.device(), "; move it with .to(\"cuda:", device_, "\")");
  }

  /// The arrival round (Note [Arrival round] in mpi/mpi_backend.cpp) as an all_gather of each
  /// rank's header on the mpi group: every rank sees every call, and a missing peer makes
  /// the mpi group's timeout raise, naming it.
  void arrive(CollectiveKind kind, const Tensor& t, int64_t op, int64_t root,
              const char* collective) {
    check_device(t, collective);
    const int64_t mine[] = {++seq_, static_cast<int64_t>(kind), static_cast<int64_t>(t.dtype()),
                            t.numel(), root, op};
    Tensor header = empty({6}, dtype(kInt64));
    std::memcpy(header.raw_data(), mine, sizeof mine);
    std::vector<Tensor> all;
    for (int r = 0; r < env_.world_size; ++r) all.push_back(empty({6}, dtype(kInt64)));
    mpi_->all_gather(all, header)->wait();
    for (int r = 0; r < env_.world_size; ++r) {
      if (std::memcmp(all[r].raw_data(), mine, sizeof mine) == 0) continue;
      const int64_t* theirs = static_cast<const int64_t*>(all[r].raw_data());
      throw Error(tide::detail::concat(
          "[", collective, "] rank ", env_.rank, " called ", name(kind), " of ", t.numel(), " ",
          name(t.dtype()), " elements as collective #", mine[0], ", but rank ", r, " called ",
          name(static_cast<CollectiveKind>(theirs[1])), " of ", theirs[3], " ",
          name(static_cast<Dtype>(theirs[2])), " elements as collective #", theirs[0],
          "; every rank must call the same collectives in the same order with tensors of the "
          "same dtype and size"));
    }
  }

  template <class Launch>
  std::shared_ptr<Work> enqueue(const std::vector<Tensor>& used, Launch launch) {
    const cuda::Stream current = cuda::current_stream(device_);
    comm_stream_->wait_stream(current);
    for (const Tensor& t : used) t.record_stream(*comm_stream_);
    cuda::StreamGuard on_comm(*comm_stream_);
    launch(comm_stream_->native_handle());
    cuda::Event done;
    done.record(*comm_stream_);
    return std::make_shared<NcclWork>(std::move(done), device_);
  }

  LauncherEnv env_;
  int device_ = 0;
  int64_t seq_ = 0;
  std::unique_ptr<ProcessGroupBackend> mpi_;
  std::unique_ptr<backends::NcclCommunicator> comm_;
  std::unique_ptr<cuda::Stream> comm_stream_;
};

}  // namespace

bool nccl_available() { return backends::nccl_compiled(); }

std::unique_ptr<ProcessGroupBackend> make_nccl_backend(const LauncherEnv& env,
                                                       std::chrono::milliseconds timeout) {
  return std::make_unique<NcclBackend>(env, timeout);
}

}  // namespace tide::distributed::detail
