#pragma once
// Enqueueing work on a cuda stream: the one entry point ops use.

#include <cstddef>
#include <cstdint>

#include "runtime/backend.h"
#include "tide/cuda/stream.h"

namespace tide::runtime {

/// Enqueues `task` on `stream` and returns its sequence number. `op` must be a string
/// literal; the innermost tide::Scope is captured for error reports. Under
/// CUDA_LAUNCH_BLOCKING=1 the call waits for the task and raises its KernelError, if any.
///
/// Note [Launch cost]: the per-launch path is the stream lock in the backend plus what the
/// task's captures need (none beyond std::function's buffer for two pointers); the scope is
/// a thread-local pointer read, the op name a literal, the OpRing three stores, and one
/// predictable branch for TIDE_ASYNC_BACKTRACE (Note [Async error backtraces]).
uint64_t launch(const cuda::Stream& stream, const char* op, Task task);
/// Note [Native launches] (backends/cuda/launch_context.h): on the real CUDA backend a kernel
/// is a GPU launcher called on this thread between the construction of a NativeLaunch and
/// its finish(), which applies CUDA_LAUNCH_BLOCKING like launch() does. The destructor closes
/// the launch also when the launcher throws.
class NativeLaunch {
 public:
  NativeLaunch(const cuda::Stream& stream, const char* op);
  ~NativeLaunch();
  NativeLaunch(const NativeLaunch&) = delete;
  NativeLaunch& operator=(const NativeLaunch&) = delete;

  uint64_t seq() const { return seq_; }
  /// Call after the launcher returned: under CUDA_LAUNCH_BLOCKING=1 waits for the stream and
  /// raises the launch's KernelError, if any.
  void finish();

 private:
  Backend& backend_;
  const cuda::Stream& stream_;
  uint64_t seq_;
  bool open_ = true;
};

/// Copies nbytes from src to dst in `stream` order (simulated device memory is host memory).
uint64_t memcpy_async(void* dst, const void* src, size_t nbytes, const cuda::Stream& stream);

/// Raw device memory of cuda:`device`; raises OutOfMemoryError past the device's capacity.
void* device_malloc(int device, size_t nbytes);
void device_free(int device, void* ptr, size_t nbytes) noexcept;

}  // namespace tide::runtime
