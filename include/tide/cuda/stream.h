#pragma once
// Stream: a linear sequence of execution on one cuda device, as torch.cuda.Stream.

#include <cstdint>
#include <functional>
#include <ostream>

#include "tide/device.h"

namespace tide::runtime {
struct StreamRecord;  // the runtime's record of a stream (src/runtime/native_handle.h)
}  // namespace tide::runtime

namespace tide::cuda {

class Event;

namespace detail {
struct FromPoolTag {};
}  // namespace detail

/// A handle to one of a device's streams: cheap to copy, comparable, printable, hashable.
///
/// Note [A stream's cudaStream_t]: on a real GPU, cuda_stream() is the stream's cudaStream_t
/// (0, CUDA's legacy default stream, for the default stream). A simulated GPU's stream is a
/// host thread and has no cudaStream_t, and there is no integer to stand for it: a CUDA
/// library reads 0 as the legacy default stream, 1 and 2 as the legacy and per-thread default
/// streams, and any other value as a CUstream_st* to dereference. Whatever tide returned would
/// therefore be taken for a real stream by a CUDA library in the same process (torch on a
/// real GPU beside tide's simulated ones), so cuda_stream() raises there instead, as torch
/// raises without CUDA. Streams are told apart by id() on every backend.
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
  Stream(detail::FromPoolTag, int device, uint64_t id, runtime::StreamRecord* handle)
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

  /// The runtime's record of this stream, on real and simulated GPUs alike: never a CUDA type
  /// (Note [Typed native handles] in src/runtime/native_handle.h). For the cudaStream_t, see
  /// cuda_stream().
  runtime::StreamRecord* native_handle() const { return handle_; }
  /// The cudaStream_t this stream enqueues on, as an integer: torch's Stream.cuda_stream, for
  /// handing the stream to CUDA libraries (cuBLAS, CuPy, Triton, ...). 0 for the default stream
  /// (tide's default stream is CUDA's legacy default stream, as torch's). Raises tide::Error
  /// on a simulated GPU (Note [A stream's cudaStream_t]).
  uintptr_t cuda_stream() const;

 private:
  runtime::StreamRecord* handle_;
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
