// NcclCommunicator on the CUDA toolkit's NCCL (Note [NCCL communicator] in
// backends/nccl_communicator.h).

#include "backends/nccl_communicator.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "backends/cuda/cuda_handles.h"
#include "backends/cuda/raw_stream.h"
#include "tide/error.h"

namespace tide::backends {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void throw_nccl(ncclResult_t result, const char* call, ncclComm_t comm) {
  const char* last = ncclGetLastError(comm);
  throw NcclError(detail::concat("[nccl] ", call, " failed: ", ncclGetErrorString(result), " (",
                                 static_cast<int>(result), ")",
                                 last != nullptr && *last != '\0' ? "; " : "",
                                 last != nullptr ? last : ""));
}

ncclDataType_t nccl_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::Bool:
    case Dtype::UInt8: return ncclUint8;
    case Dtype::Int32: return ncclInt32;
    case Dtype::Int64: return ncclInt64;
    case Dtype::Float16: return ncclFloat16;
    case Dtype::BFloat16: return ncclBfloat16;
    case Dtype::Float32: return ncclFloat32;
    case Dtype::Float64: return ncclFloat64;
  }
  TIDE_INTERNAL_ASSERT(false, "unknown dtype");
}

ncclRedOp_t nccl_op(NcclOp op, Dtype dtype) {
  if (dtype == Dtype::Bool) return op == NcclOp::Min ? ncclMin : ncclMax;
  switch (op) {
    case NcclOp::Sum: return ncclSum;
    case NcclOp::Max: return ncclMax;
    case NcclOp::Min: return ncclMin;
    case NcclOp::Avg: return ncclAvg;
  }
  TIDE_INTERNAL_ASSERT(false, "unknown op");
}

ncclComm_t as_comm(void* comm) { return static_cast<ncclComm_t>(comm); }

/// The communicators alive in this process, aborted at exit (Note [NCCL communicator]).
/// Leaked: it must outlive every static a communicator's owner may be.
struct LiveCommunicators {
  std::mutex mutex;
  std::set<NcclCommunicator*> live;

  static LiveCommunicators& get() {
    static LiveCommunicators* registry = [] {
      auto* made = new LiveCommunicators;
      // Registered after the CUDA runtime's own exit handler (the runtime is initialized
      // before any communicator exists), so it runs first, while CUDA still works.
      std::atexit([] {
        LiveCommunicators& r = get();
        std::lock_guard<std::mutex> lock(r.mutex);
        for (NcclCommunicator* comm : r.live) comm->abort();
      });
      return made;
    }();
    return *registry;
  }
};

}  // namespace

bool nccl_compiled() { return true; }

NcclUniqueId nccl_unique_id() {
  ncclUniqueId id;
  const ncclResult_t result = ncclGetUniqueId(&id);
  if (result != ncclSuccess) throw_nccl(result, "ncclGetUniqueId", nullptr);
  NcclUniqueId out;
  static_assert(sizeof(id) == sizeof(out.bytes));
  std::memcpy(out.bytes.data(), &id, sizeof(id));
  return out;
}

NcclCommunicator::NcclCommunicator(int device, int rank, int world_size, const NcclUniqueId& id,
                                   std::chrono::milliseconds timeout)
    : device_(device), timeout_(timeout) {
  cuda::CudaDeviceGuard on_device(device);
  ncclUniqueId nccl_id;
  std::memcpy(&nccl_id, id.bytes.data(), sizeof(nccl_id));
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  ncclComm_t comm = nullptr;
  const ncclResult_t result = ncclCommInitRankConfig(&comm, world_size, nccl_id, rank, &config);
  // From here on a communicator may exist: any failure aborts it (abort() is a no-op on null).
  comm_ = comm;
  try {
    settle(result, "ncclCommInitRankConfig");
  } catch (...) {
    abort_locked();
    throw;
  }
  LiveCommunicators& registry = LiveCommunicators::get();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.live.insert(this);
}

NcclCommunicator::~NcclCommunicator() {
  {
    LiveCommunicators& registry = LiveCommunicators::get();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.live.erase(this);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (comm_ == nullptr) return;  // aborted
  cuda::CudaDeviceGuardNoThrow on_device(device_);
  // Finalize flushes what was issued and waits until every peer's communicator is quiet. A
  // peer that already exited (or aborted) never is: after a short grace, abort instead of
  // holding destroy_process_group for the group's whole timeout.
  ncclResult_t result = ncclCommFinalize(as_comm(comm_));
  const Clock::time_point deadline =
      Clock::now() + std::min<std::chrono::milliseconds>(timeout_, std::chrono::seconds(10));
  while (result == ncclInProgress && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    ncclCommGetAsyncError(as_comm(comm_), &result);
  }
  if (result == ncclSuccess) {
    ncclCommDestroy(as_comm(comm_));
  } else {
    std::fprintf(stderr, "tide: the NCCL communicator on cuda:%d did not finalize (%s): "
                 "aborted instead\n", device_, ncclGetErrorString(result));
    ncclCommAbort(as_comm(comm_));
  }
  comm_ = nullptr;
}

void NcclCommunicator::settle(int first, const char* call) {
  ncclResult_t result = static_cast<ncclResult_t>(first);
  const Clock::time_point deadline = Clock::now() + timeout_;
  while (result == ncclInProgress) {
    if (Clock::now() >= deadline) {
      throw NcclError(detail::concat(
          "[nccl] ", call, " did not finish within ", timeout_.count(),
          " ms (the process group's timeout): a peer did not join or the network is stuck; the "
          "communicator is aborted"));
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    const ncclResult_t polled = ncclCommGetAsyncError(as_comm(comm_), &result);
    if (polled != ncclSuccess) result = polled;
  }
  if (result != ncclSuccess) throw_nccl(result, call, as_comm(comm_));
}

void NcclCommunicator::check_alive(const char* call) const {
  if (comm_ != nullptr) return;
  throw NcclError(detail::concat("[nccl] ", call, ": the communicator was aborted after an "
                                 "earlier failure; the process group is broken: exit and "
                                 "restart the job"));
}

std::string NcclCommunicator::async_error() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (comm_ == nullptr) return "the communicator was aborted";
  ncclResult_t state = ncclSuccess;
  const ncclResult_t polled = ncclCommGetAsyncError(as_comm(comm_), &state);
  if (polled != ncclSuccess) state = polled;
  if (state == ncclSuccess || state == ncclInProgress) return "";
  const char* last = ncclGetLastError(as_comm(comm_));
  return detail::concat(ncclGetErrorString(state), " (", static_cast<int>(state), ")",
                        last != nullptr && *last != '\0' ? "; " : "", last != nullptr ? last : "");
}

void NcclCommunicator::abort() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  abort_locked();
}

void NcclCommunicator::abort_locked() noexcept {
  if (comm_ == nullptr) return;
  cuda::CudaDeviceGuardNoThrow on_device(device_);
  ncclCommAbort(as_comm(comm_));
  comm_ = nullptr;
}

void NcclCommunicator::all_reduce(void* data, size_t count, Dtype dtype, NcclOp op,
                                  const tide::cuda::Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  check_alive("ncclAllReduce");
  cuda::CudaDeviceGuard on_device(device_);
  settle(ncclAllReduce(data, data, count, nccl_type(dtype), nccl_op(op, dtype), as_comm(comm_),
                       cuda::raw_stream(stream)),
         "ncclAllReduce");
}

void NcclCommunicator::broadcast(void* data, size_t count, Dtype dtype, int root,
                                 const tide::cuda::Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  check_alive("ncclBroadcast");
  cuda::CudaDeviceGuard on_device(device_);
  settle(ncclBroadcast(data, data, count, nccl_type(dtype), root, as_comm(comm_),
                       cuda::raw_stream(stream)),
         "ncclBroadcast");
}

void NcclCommunicator::all_gather(const void* input, void* output, size_t count, Dtype dtype,
                                  const tide::cuda::Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  check_alive("ncclAllGather");
  cuda::CudaDeviceGuard on_device(device_);
  settle(ncclAllGather(input, output, count, nccl_type(dtype), as_comm(comm_),
                       cuda::raw_stream(stream)),
         "ncclAllGather");
}

void NcclCommunicator::reduce_scatter(const void* input, void* output, size_t count,
                                      Dtype dtype, NcclOp op, const tide::cuda::Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  check_alive("ncclReduceScatter");
  cuda::CudaDeviceGuard on_device(device_);
  settle(ncclReduceScatter(input, output, count, nccl_type(dtype), nccl_op(op, dtype),
                           as_comm(comm_), cuda::raw_stream(stream)),
         "ncclReduceScatter");
}

}  // namespace tide::backends
