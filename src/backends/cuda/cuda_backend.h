#pragma once
// CudaBackend: real NVIDIA GPUs through the CUDA runtime, behind runtime::Backend.

#include <cuda_runtime.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_handles.h"
#include "backends/cuda/error_record.h"
#include "runtime/backend.h"
#include "runtime/backtrace.h"
#include "runtime/op_ring.h"

namespace tide::backends::cuda {

/// One stream as the runtime sees it: the CUDA stream (nullptr: the device's legacy default
/// stream), its runtime id and the OpRing that names its launches in error reports.
struct CudaStream final : runtime::StreamRecord {
  int device;
  uint64_t id;
  cudaStream_t stream;
  StreamOwner owner;  // empty for the default stream
  std::mutex mutex;   // guards next_seq and ring
  uint64_t next_seq = 0;
  runtime::OpRing ring;
  /// Enqueue backtraces by seq % OpRing::kCapacity, filled only under TIDE_ASYNC_BACKTRACE=1
  /// (Note [Async error backtraces]); a real GPU's kernel cannot carry one itself.
  std::vector<std::shared_ptr<const runtime::RawBacktrace>> backtraces;
};

/// Note [Real CUDA backend]:
/// - Devices are what the driver reports after applying CUDA_VISIBLE_DEVICES; per-device state
///   (properties, the error record, peer access) is set up at a device's first use, so a
///   process that only uses cuda:1 never creates a context on cuda:0.
/// - Streams are created non-blocking with the device's highest priority for priority -1;
///   pooled and never destroyed (the runtime's pools, as torch). The default stream is the
///   legacy default stream, as in torch.
/// - Events are created without timing unless asked (cudaEventDisableTiming), with
///   cudaEventBlockingSync when asked to block.
/// - Kernels are GPU launchers called on the host thread between begin_native_launch and
///   end_native_launch (Note [Native launches]), which number the launch, make its device
///   current, push an NVTX range named after the op and fill the thread's LaunchContext.
/// - Every synchronizing call collects the device's error record (Note [Device error
///   records]) and hands it to the error channel, so KernelError works as on simulated GPUs.
class CudaBackend final : public runtime::Backend {
 public:
  explicit CudaBackend(int device_count);
  ~CudaBackend() override;

  DeviceType type() const override { return kCUDA; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  int current_device() const override;
  void set_device(int device) override;
  void restore_device(int device) noexcept override;
  tide::cuda::DeviceProperties properties(int device) const override;
  bool can_access_peer(int device, int peer) const override;
  void synchronize_device(int device) override;

  runtime::StreamHandle default_stream(int device) override;
  runtime::StreamHandle create_stream(int device, int priority, uint64_t id) override;
  bool query_stream(runtime::StreamHandle stream) override;
  void synchronize_stream(runtime::StreamHandle stream) override;
  uint64_t launch(runtime::StreamHandle stream, const runtime::LaunchInfo& info,
                  runtime::Task task) override;
  uintptr_t cuda_stream(runtime::StreamHandle stream) override;
  void external_stream_wait(uintptr_t consumer, runtime::StreamHandle producer) override;
  bool native_kernels() const override { return true; }
  void enable_peer_access(int device, int peer) override;
  uint64_t begin_native_launch(runtime::StreamHandle stream,
                               const runtime::LaunchInfo& info) override;
  void end_native_launch() noexcept override;

  runtime::EventHandle create_event(int device, bool enable_timing, bool blocking) override;
  void destroy_event(runtime::EventHandle event) noexcept override;
  void record_event(runtime::EventHandle event, runtime::StreamHandle stream) override;
  bool query_event(runtime::EventHandle event) override;
  void synchronize_event(runtime::EventHandle event) override;
  void stream_wait_event(runtime::StreamHandle stream, runtime::EventHandle event) override;
  float elapsed_time(runtime::EventHandle start, runtime::EventHandle end) override;

  void* malloc(int device, size_t nbytes) override;
  void free(int device, void* ptr, size_t nbytes) noexcept override;
  int64_t memory_in_use(int device) const override;
  int64_t memory_capacity(int device) const override;
  uint64_t memcpy_async(void* dst, const void* src, size_t nbytes,
                        runtime::StreamHandle stream) override;

  void* host_alloc(size_t nbytes) override;
  void host_free(void* ptr, size_t nbytes) noexcept override;

 private:
  struct Device {
    std::once_flag init_once;
    cudaDeviceProp props{};
    int least_priority = 0, greatest_priority = 0;
    // Note [Device error records]
    DeviceMemoryOwner record;    // DeviceErrorRecord
    HostMemoryOwner flag;        // int32_t, mapped
    int32_t* flag_device = nullptr;
    HostMemoryOwner taken;       // DeviceErrorRecord, mapped: where a take copies the record
    DeviceErrorRecord* taken_device = nullptr;
    StreamOwner error_stream;    // private, non-blocking: takes run beside the user's work
    std::mutex errors_mutex;     // one collector at a time
    std::mutex streams_mutex;    // guards streams and by_id
    std::vector<std::unique_ptr<CudaStream>> streams;  // [0] is the default stream
    std::vector<CudaStream*> by_id;
    std::mutex peers_mutex;
    std::vector<bool> peer_enabled;  // by peer: access to the peer's memory was enabled
  };

  /// The device's state, set up at its first use (Note [Real CUDA backend]).
  Device& device(int index) const;
  /// The state without setting the device up (the default stream needs no CUDA call).
  Device& device_state(int index) const { return *devices_[static_cast<size_t>(index)]; }
  void init_device(int index, Device& d) const;
  CudaStream* stream_by_id(int device, uint64_t id) const;
  uint64_t next_seq(CudaStream& s, const runtime::LaunchInfo& info,
                    std::shared_ptr<const runtime::RawBacktrace> backtrace = nullptr);
  /// Hands a device error record, if any, to the error channel.
  void collect_errors(int device);

  std::vector<std::unique_ptr<Device>> devices_;
};

}  // namespace tide::backends::cuda
