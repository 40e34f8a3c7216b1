#pragma once
// Backend: what a device type (cpu, simulated cuda, real cuda) must provide to the runtime.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>

#include "runtime/native_handle.h"
#include "tide/cuda/device.h"
#include "tide/device.h"

namespace tide::runtime {

/// What the runtime knows about an enqueued operation, kept for error reports.
struct LaunchInfo {
  const char* op;     // a string literal: "index_select"
  const char* scope;  // the innermost tide::Scope at enqueue, or nullptr
};

/// The unit of work on a stream. The runtime's only per-launch allocation is this object
/// (std::function's small-buffer holds captures of up to two pointers without allocating).
using Task = std::function<void()>;

/// One device type's driver, looked up by DeviceType (registry.h).
///
/// Note [Backend contract]: device indices passed in are already checked by the runtime to
/// be in [0, device_count()). Work on one stream runs in the order it was enqueued; work on
/// different streams may run concurrently in any order unless ordered by events. Every
/// method may be called from any host thread at once. A failure inside a task must not stop
/// the stream: the backend reports it through runtime::report_kernel_error
/// (error_channel.h) and goes on with the next task. Handles live until destroyed; the
/// runtime never destroys a stream (pooled streams live for the process, as in torch).
class Backend {
 public:
  virtual ~Backend() = default;

  virtual DeviceType type() const = 0;
  virtual int device_count() const = 0;
  /// This host thread's current device.
  virtual int current_device() const = 0;
  virtual void set_device(int device) = 0;
  /// Makes `device` current again when a guard ends: never throws and runs no per-device
  /// setup. The real CUDA backend sets it only when its context is already active, and
  /// otherwise only remembers it (Note [Restoring a device], backends/cuda/thread_device.h).
  virtual void restore_device(int device) noexcept = 0;
  virtual cuda::DeviceProperties properties(int device) const = 0;
  virtual bool can_access_peer(int device, int peer) const = 0;
  /// Blocks until every stream of the device has finished the work enqueued before the call.
  virtual void synchronize_device(int device) = 0;

  virtual StreamHandle default_stream(int device) = 0;
  /// priority: 0 normal, -1 high; `id` is the runtime's name for it in error reports.
  virtual StreamHandle create_stream(int device, int priority, uint64_t id) = 0;
  virtual bool query_stream(StreamHandle stream) = 0;
  virtual void synchronize_stream(StreamHandle stream) = 0;
  /// Enqueues `task`; returns its sequence number on the stream (1, 2, ...). On a native
  /// backend the task runs on the calling thread inside a native launch and enqueues device
  /// work itself (Note [Native launches] in backends/cuda/launch_context.h).
  virtual uint64_t launch(StreamHandle stream, const LaunchInfo& info, Task task) = 0;

  /// The CUDA stream behind `stream` as an integer (cuda::Stream::cuda_stream): 0 for the
  /// legacy default stream. A backend without CUDA streams raises tide::Error (Note [A
  /// stream's cudaStream_t] in tide/cuda/stream.h).
  virtual uintptr_t cuda_stream(StreamHandle stream) = 0;
  /// DLPack's producer side: makes future work on the foreign CUDA stream `consumer` (a
  /// cudaStream_t as an integer; 1 and 2 are CUDA's and DLPack's legacy and per-thread default
  /// streams) wait for the work enqueued on `producer` so far, without blocking the host. A
  /// backend without CUDA streams raises tide::Error.
  virtual void external_stream_wait(uintptr_t consumer, StreamHandle producer) = 0;

  /// Whether kernels are GPU launchers that enqueue device work (real CUDA) rather than host
  /// tasks run by the backend (simulated GPUs); see Note [Kernel stubs].
  virtual bool native_kernels() const { return false; }
  /// Native backends: starts a launch on `stream` from this thread (its device becomes
  /// current, launchers find the stream in their LaunchContext) and returns its sequence
  /// number; end_native_launch closes it. Unused by host-task backends.
  virtual uint64_t begin_native_launch(StreamHandle /*stream*/, const LaunchInfo& /*info*/) {
    return 0;
  }
  virtual void end_native_launch() noexcept {}

  virtual EventHandle create_event(int device, bool enable_timing, bool blocking) = 0;
  virtual void destroy_event(EventHandle event) noexcept = 0;
  virtual void record_event(EventHandle event, StreamHandle stream) = 0;
  virtual bool query_event(EventHandle event) = 0;
  virtual void synchronize_event(EventHandle event) = 0;
  /// Future work on `stream` waits for the event's last record (as of this call).
  virtual void stream_wait_event(StreamHandle stream, EventHandle event) = 0;
  /// Milliseconds between two completed timing events.
  virtual float elapsed_time(EventHandle start, EventHandle end) = 0;

  /// Lets kernels and copies on `device` reach `peer`'s memory directly where the hardware
  /// allows it (real GPUs: cudaDeviceEnablePeerAccess, once per pair, at the first copy
  /// between the two); a no-op where memory is shared anyway.
  virtual void enable_peer_access(int /*device*/, int /*peer*/) {}

  /// Device memory; raises tide::OutOfMemoryError when the device cannot serve it.
  virtual void* malloc(int device, size_t nbytes) = 0;
  virtual void free(int device, void* ptr, size_t nbytes) noexcept = 0;
  /// Bytes currently taken by malloc on the device, and its capacity.
  virtual int64_t memory_in_use(int device) const = 0;
  virtual int64_t memory_capacity(int device) const = 0;
  /// Copies nbytes in stream order (host and device memory are both addressable here).
  virtual uint64_t memcpy_async(void* dst, const void* src, size_t nbytes,
                                StreamHandle stream) = 0;

  /// Page-locked host memory for the pinned allocator (src/memory/pinned_allocator.h), or
  /// nullptr when the host cannot provide it. The default is ordinary 64-byte aligned host
  /// memory: simulated GPUs read host memory directly, so only the semantics of pinning
  /// (asynchronous copies, stream-guarded reuse) are simulated. Real GPUs override it with
  /// cudaHostAlloc / cudaFreeHost.
  virtual void* host_alloc(size_t nbytes) {
    return std::aligned_alloc(64, nbytes < 64 ? 64 : (nbytes + 63) / 64 * 64);
  }
  virtual void host_free(void* ptr, size_t /*nbytes*/) noexcept { std::free(ptr); }
};

}  // namespace tide::runtime
