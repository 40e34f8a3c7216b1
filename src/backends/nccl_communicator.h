#pragma once
// NcclCommunicator: one NCCL communicator, behind an interface free of CUDA and NCCL types so
// that tide::distributed (compiled by g++ alone) can use it; implemented in
// backends/cuda/nccl/ (STYLE.md habits 2 and 7), or by backends/no_nccl/ in builds without it.

#include <array>
#include <cstddef>

#include "tide/dtype.h"

namespace tide::backends {

/// Whether this build links NCCL (CUDA toolkit found with nccl.h and libnccl).
bool nccl_compiled();

/// ncclUniqueId's bytes: made by rank 0, sent to the others by the caller.
struct NcclUniqueId {
  std::array<char, 128> bytes{};
};
NcclUniqueId nccl_unique_id();

enum class NcclOp { Sum, Max, Min, Avg };

/// Move-only owner of an ncclComm_t for one device. Every call enqueues on `stream` (a
/// cudaStream_t, as cuda::Stream::native_handle() gives it) and returns at once; failures
/// raise tide::distributed-style tide::Error naming the NCCL call and NCCL's text. bool
/// travels as uint8 (SUM and MAX reduce with max, MIN with min: logical or / and on 0 and 1).
class NcclCommunicator {
 public:
  /// ncclCommInitRank on `device` (made current for the call).
  NcclCommunicator(int device, int rank, int world_size, const NcclUniqueId& id);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  void all_reduce(void* data, size_t count, Dtype dtype, NcclOp op, void* stream);
  void broadcast(void* data, size_t count, Dtype dtype, int root, void* stream);
  /// output holds world_size * count elements, rank r's input at [r * count, (r + 1) * count).
  void all_gather(const void* input, void* output, size_t count, Dtype dtype, void* stream);
  /// input holds world_size * count elements; rank r receives the reduction of block r.
  void reduce_scatter(const void* input, void* output, size_t count, Dtype dtype, NcclOp op,
                      void* stream);
  /// Ends the communicator without waiting for peers (after a timeout): ncclCommAbort.
  void abort() noexcept;

 private:
  // Unused by the no-NCCL stubs (src/backends/no_nccl), which only raise.
  [[maybe_unused]] void* comm_ = nullptr;  // ncclComm_t
  [[maybe_unused]] int device_;
};

}  // namespace tide::backends
