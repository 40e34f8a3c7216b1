#pragma once
// SimBackend: simulated GPUs that live in host memory (DESIGN.md), behind runtime::Backend.

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/sim/sim_config.h"
#include "backends/sim/sim_stream.h"
#include "runtime/backend.h"

namespace tide::sim {

/// Note [Simulated events]: an event is the pair (stream, sequence number of the last task
/// enqueued when it was recorded); it has completed when the stream's completed counter has
/// reached that number, and a host wait sleeps on the stream's condition variable. A timing
/// event also enqueues a marker task that stamps the clock when the stream reaches it, so
/// elapsed_time measures stream progress, as on a GPU. Waiting on an event from another
/// stream enqueues a task that blocks that stream's worker until the event completes.
class SimBackend final : public runtime::Backend {
 public:
  explicit SimBackend(SimConfig config);
  ~SimBackend() override;

  DeviceType type() const override { return kCUDA; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  int current_device() const override;
  void set_device(int device) override;
  void restore_device(int device) noexcept override;
  cuda::DeviceProperties properties(int device) const override;
  bool can_access_peer(int device, int peer) const override;
  void synchronize_device(int device) override;

  runtime::StreamHandle default_stream(int device) override;
  runtime::StreamHandle create_stream(int device, int priority, uint64_t id) override;
  bool query_stream(runtime::StreamHandle stream) override;
  void synchronize_stream(runtime::StreamHandle stream) override;
  uint64_t launch(runtime::StreamHandle stream, const runtime::LaunchInfo& info,
                  runtime::Task task) override;
  /// Both raise: a simulated stream has no cudaStream_t (Note [A stream's cudaStream_t]).
  uintptr_t cuda_stream(runtime::StreamHandle stream) override;
  void external_stream_wait(uintptr_t consumer, runtime::StreamHandle producer) override;

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
  int64_t memory_capacity(int /*device*/) const override { return config_.capacity; }
  uint64_t memcpy_async(void* dst, const void* src, size_t nbytes,
                        runtime::StreamHandle stream) override;

  /// The physical ordinal behind cuda:`device`.
  int physical_ordinal(int device) const { return config_.visible[static_cast<size_t>(device)]; }
  const SimConfig& config() const { return config_; }

  /// At process exit (registered by the registry, which never destroys backends): every
  /// stream finishes its running task and starts no other (Note [Simulated streams at exit]).
  void quiesce_for_exit();

  /// Testing hooks (testing/sim_hooks.h).
  static void hold(runtime::StreamHandle stream);
  static void release(runtime::StreamHandle stream);

 private:
  struct Device {
    std::atomic<int64_t> in_use{0};
    std::mutex streams_mutex;
    std::vector<std::unique_ptr<SimStream>> streams;  // [0] is the default stream
  };

  SimConfig config_;
  std::vector<std::unique_ptr<Device>> devices_;
};

}  // namespace tide::sim
