#pragma once
// DeviceCommunicator: what a GPU process group needs of its communication library: NCCL's
// communicator (backends/nccl_communicator.h), or a test's fake on simulated GPUs.

#include <cstddef>
#include <string>

#include "tide/cuda/stream.h"
#include "tide/dtype.h"

namespace tide::backends {

enum class NcclOp { Sum, Max, Min, Avg };

/// One rank's end of a communicator bound to one device. Collectives enqueue on `stream` and
/// return at once; a failure to enqueue raises NcclError (backends/nccl_communicator.h).
class DeviceCommunicator {
 public:
  virtual ~DeviceCommunicator() = default;

  virtual int device() const = 0;
  virtual void all_reduce(void* data, size_t count, Dtype dtype, NcclOp op,
                          const tide::cuda::Stream& stream) = 0;
  virtual void broadcast(void* data, size_t count, Dtype dtype, int root,
                         const tide::cuda::Stream& stream) = 0;
  /// output holds world_size * count elements, rank r's input at [r * count, (r + 1) * count).
  virtual void all_gather(const void* input, void* output, size_t count, Dtype dtype,
                          const tide::cuda::Stream& stream) = 0;
  /// input holds world_size * count elements; rank r receives the reduction of block r.
  virtual void reduce_scatter(const void* input, void* output, size_t count, Dtype dtype,
                              NcclOp op, const tide::cuda::Stream& stream) = 0;
  /// "" while healthy (or still settling), else the library's error text. Waits for no
  /// device or peer (only for a call in progress on another thread); callable from another
  /// thread than the collectives'.
  virtual std::string async_error() noexcept = 0;
  /// Ends the communicator without waiting for peers; its kernels stop.
  virtual void abort() noexcept = 0;
};

}  // namespace tide::backends
