#pragma once
// DeviceUpstream: memory::Upstream over one cuda device of the runtime backend (simulated or
// real), so the caching allocator's single algorithm serves every GPU backend.

#include <memory>

#include "memory/upstream.h"
#include "runtime/backend.h"

namespace tide::memory {

/// Raw memory from Backend::malloc/free and stream markers made of backend events.
///
/// Note [Stream markers]: a marker is an event recorded on the stream with the given id of
/// this device (runtime::stream_of). Events are reused: a marker's event returns to a small
/// free list when the last copy of the marker goes, so a steady state of cross-stream frees
/// creates no backend events. The free list is shared with the markers, so a marker may
/// outlive its upstream.
class DeviceUpstream final : public Upstream {
 public:
  DeviceUpstream(runtime::Backend& backend, int device);
  ~DeviceUpstream() override;

  void* raw_malloc(size_t nbytes) override;
  void raw_free(void* ptr, size_t nbytes) noexcept override;
  StreamMarker record(uint64_t stream_id) override;
  bool query(const StreamMarker& marker) override;
  void synchronize(const StreamMarker& marker) override;
  int64_t capacity() const override;
  int64_t raw_in_use() const override;

  struct EventPool;

 private:
  runtime::Backend& backend_;
  int device_;
  std::shared_ptr<EventPool> events_;
};

}  // namespace tide::memory
