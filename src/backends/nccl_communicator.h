#pragma once
// NcclCommunicator: one NCCL communicator, behind an interface free of CUDA and NCCL types so
// that tide::distributed (compiled by g++ alone) can use it; implemented in
// backends/cuda/nccl/ (STYLE.md habits 2 and 7), or by backends/no_nccl/ in builds without it.

#include <array>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

#include "backends/device_communicator.h"
#include "tide/cuda/stream.h"
#include "tide/dtype.h"
#include "tide/error.h"

namespace tide::backends {

/// Whether this build links NCCL (CUDA toolkit found with nccl.h and libnccl).
bool nccl_compiled();

/// An NCCL call failed, or did not finish initializing in time. tide::distributed turns it
/// into a DistBackendError (the backends layer cannot name that type: it sits above).
class NcclError : public Error {
 public:
  using Error::Error;
};

/// ncclUniqueId's bytes: made by rank 0, sent to the others by the caller.
struct NcclUniqueId {
  std::array<char, 128> bytes{};
};
NcclUniqueId nccl_unique_id();

/// Move-only owner of an ncclComm_t for one device.
///
/// Note [NCCL communicator]: the communicator is created non-blocking (ncclConfig_t.blocking
/// = 0), so that neither its initialization nor any later call can hang the host: calls that
/// answer ncclInProgress are polled with ncclCommGetAsyncError until they settle or `timeout`
/// passes (then the communicator is aborted and NcclError raised). Every call that touches the
/// device — init, collectives, destroy, abort — runs under the context-safe device guard
/// (Note [Restoring a device]), so no rank creates a context on a device it does not use. A
/// communicator still alive when the process exits is aborted then, not leaked (its peers may
/// be gone, so it is never destroyed collectively at exit). Collectives enqueue on `stream`
/// (unwrapped to its cudaStream_t inside backends/cuda) and return at once. bool travels as
/// uint8 (SUM and MAX reduce with max, MIN with min: logical or / and on 0 and 1).
class NcclCommunicator final : public DeviceCommunicator {
 public:
  /// ncclCommInitRankConfig on `device`; waits at most `timeout` for the peers to join.
  NcclCommunicator(int device, int rank, int world_size, const NcclUniqueId& id,
                   std::chrono::milliseconds timeout);
  /// ncclCommDestroy (after the caller finished the collectives); ncclCommAbort if aborted.
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  int device() const override { return device_; }

  void all_reduce(void* data, size_t count, Dtype dtype, NcclOp op,
                  const tide::cuda::Stream& stream) override;
  void broadcast(void* data, size_t count, Dtype dtype, int root,
                 const tide::cuda::Stream& stream) override;
  void all_gather(const void* input, void* output, size_t count, Dtype dtype,
                  const tide::cuda::Stream& stream) override;
  void reduce_scatter(const void* input, void* output, size_t count, Dtype dtype, NcclOp op,
                      const tide::cuda::Stream& stream) override;

  /// ncclCommGetAsyncError.
  std::string async_error() noexcept override;
  /// ncclCommAbort: the device's NCCL kernels stop, so events after them complete.
  void abort() noexcept override;

 private:
  /// Polls an ncclInProgress answer until it settles or the deadline passes; under mutex_
  /// (or in the constructor, before anyone else can see the communicator).
  void settle(int result, const char* call);
  /// Raises NcclError when the communicator was aborted; under mutex_.
  void check_alive(const char* call) const;
  void abort_locked() noexcept;

  // Serializes the calls: the watchdog's async_error/abort run on their own thread.
  std::mutex mutex_;

  // Unused by the no-NCCL stubs (src/backends/no_nccl), which only raise.
  [[maybe_unused]] void* comm_ = nullptr;  // ncclComm_t
  [[maybe_unused]] int device_;
  [[maybe_unused]] std::chrono::milliseconds timeout_;
};

}  // namespace tide::backends
