#pragma once
// StreamGuard: `with torch.cuda.stream(s):` as RAII.

#include "tide/cuda/stream.h"

namespace tide::cuda {

/// Makes the stream's device current and the stream current on it; restores both: the
/// previous current device, and the previous current stream of the stream's device.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

  const Stream& original_stream() const { return original_stream_; }
  int original_device() const { return original_device_; }

 private:
  Stream original_stream_;
  int original_device_;
};

}  // namespace tide::cuda
