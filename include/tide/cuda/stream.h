#pragma once
// Stream: a linear sequence of execution on one cuda device, as torch.cuda.Stream.

#include <cstdint>
#include <functional>
#include <ostream>

#include "tide/device.h"

namespace tide::cuda {

class Event;

namespace detail {
struct FromPoolTag {};
}  // namespace detail

/// A handle to one of a device's streams: cheap to copy, comparable, printable, hashable.
///
/// Note [Stream pool]: as in torch, streams are not created per `Stream` object. Each device
/// has its default stream (id 0) and two pools of 32 streams, one per priority (0: normal,
/// any negative priority: high; positive priorities clamp to 0 as torch does), and
/// `Stream(device, priority)` hands out the pool's streams round-robin. Two `Stream` objects
/// may therefore be the same stream, and compare equal. Ids: 0 is the default stream,
/// 1..32 the normal-priority pool, 33..64 the high-priority pool.
class Stream {
 public:
  static constexpr int kStreamsPerPool = 32;

  /// The next stream of `device`'s pool (-1: the current device), like torch.cuda.Stream().
  explicit Stream(int device = -1, int priority = 0);
  /// For the runtime: a stream handle it already resolved.
  Stream(detail::FromPoolTag, int device, uint64_t id, void* handle)
      : handle_(handle), id_(id), device_(static_cast<int16_t>(device)) {}

  int device_index() const { return device_; }
  Device device() const { return Device(kCUDA, device_); }
  /// 0 for the default stream, 1..64 for pooled streams (Note [Stream pool]).
  uint64_t id() const { return id_; }
  /// 0 (normal) or -1 (high).
  int priority() const { return id_ > static_cast<uint64_t>(kStreamsPerPool) ? -1 : 0; }
  bool is_default() const { return id_ == 0; }

  /// Whether all work enqueued so far has finished (never blocks, never raises).
  bool query() const;
  /// Blocks until all work enqueued so far has finished; raises a pending KernelError.
  void synchronize() const;
  /// Makes future work on this stream wait for the event's last record.
  void wait_event(const Event& event) const;
  /// Makes future work on this stream wait for all work enqueued on `other` so far.
  void wait_stream(const Stream& other) const;
  /// Records a new event on this stream and returns it.
  Event record_event() const;

  bool operator==(const Stream& o) const { return device_ == o.device_ && id_ == o.id_; }
  bool operator!=(const Stream& o) const { return !(*this == o); }

  /// cudaStream_t on real GPUs; the simulated stream object on simulated ones.
  void* native_handle() const { return handle_; }

 private:
  void* handle_;
  uint64_t id_;
  int16_t device_;
};

/// "Stream(device=cuda:0, id=3, priority=0)".
std::ostream& operator<<(std::ostream& os, const Stream& s);

/// This thread's current stream on `device` (-1: the current device); the default stream
/// until set_stream or a StreamGuard changes it.
Stream current_stream(int device = -1);
/// The default stream of `device` (-1: the current device).
Stream default_stream(int device = -1);
/// Makes `stream` this thread's current stream on its device (the current device is unchanged,
/// as torch.cuda.set_stream).
void set_stream(const Stream& stream);

}  // namespace tide::cuda

template <>
struct std::hash<tide::cuda::Stream> {
  size_t operator()(const tide::cuda::Stream& s) const noexcept {
    return std::hash<uint64_t>()((static_cast<uint64_t>(s.device_index()) << 32) ^ s.id());
  }
};
