#pragma once
// Event: a marker in a stream, as torch.cuda.Event.

#include <functional>
#include <memory>
#include <ostream>

#include "tide/cuda/stream.h"

namespace tide::cuda {

namespace detail {
struct EventState;
}

/// A synchronization marker. Copies share one underlying event (as Python references to a
/// torch.cuda.Event do), so Event is cheap to copy and compares by identity. The backend's
/// event is created at the first record, on the recording stream's device; recording on
/// another device later is an error, as in torch.
class Event {
 public:
  /// `blocking` asks host waits to block rather than spin; simulated devices always block.
  explicit Event(bool enable_timing = false, bool blocking = false);

  /// Captures the work enqueued on `stream` so far; re-recording moves the marker.
  void record(const Stream& stream = current_stream());
  /// Makes future work on `stream` wait for this event's last record (no-op if never recorded).
  void wait(const Stream& stream = current_stream()) const;
  /// Whether the recorded work has finished (true if never recorded, as torch).
  bool query() const;
  /// Blocks until the recorded work has finished; raises a pending KernelError of its device.
  void synchronize() const;
  /// Milliseconds between this event and `end`; both need enable_timing and must have
  /// been recorded and completed.
  float elapsed_time(const Event& end) const;

  bool enable_timing() const;
  bool blocking() const;
  /// The device it was recorded on, -1 before the first record.
  int device_index() const;

  bool operator==(const Event& o) const { return state_ == o.state_; }
  bool operator!=(const Event& o) const { return state_ != o.state_; }
  const void* id() const { return state_.get(); }

 private:
  std::shared_ptr<detail::EventState> state_;
};

std::ostream& operator<<(std::ostream& os, const Event& e);

}  // namespace tide::cuda

template <>
struct std::hash<tide::cuda::Event> {
  size_t operator()(const tide::cuda::Event& e) const noexcept {
    return std::hash<const void*>()(e.id());
  }
};
