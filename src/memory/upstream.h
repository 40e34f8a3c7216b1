#pragma once
// Upstream: what the caching allocator needs from a device backend — raw memory and stream
// markers. One interface, so the same algorithm serves simulated and real GPUs, and unit
// tests drive it with a fake upstream whose markers complete when the test says so.

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tide::memory {

/// "Everything enqueued on a stream up to now": completes when that work has finished.
using StreamMarker = std::shared_ptr<void>;

class Upstream {
 public:
  virtual ~Upstream() = default;
  /// Raw device memory, or nullptr when the device cannot provide it (never throws for that).
  virtual void* raw_malloc(size_t nbytes) = 0;
  virtual void raw_free(void* ptr, size_t nbytes) noexcept = 0;
  /// A marker of the work enqueued on stream `stream_id` of this device so far.
  virtual StreamMarker record(uint64_t stream_id) = 0;
  virtual bool query(const StreamMarker& marker) = 0;
  virtual void synchronize(const StreamMarker& marker) = 0;
  /// The device's capacity and what raw_malloc has handed out and not taken back.
  virtual int64_t capacity() const = 0;
  virtual int64_t raw_in_use() const = 0;
};

}  // namespace tide::memory
