#include "memory/device_upstream.h"

#include <mutex>
#include <vector>

#include "runtime/stream_pool.h"
#include "tide/error.h"

namespace tide::memory {

struct DeviceUpstream::EventPool {
  EventPool(runtime::Backend& b, int d) : backend(b), device(d) {}
  ~EventPool() {
    for (runtime::EventHandle e : free) backend.destroy_event(e);
  }

  runtime::EventHandle take() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!free.empty()) {
        runtime::EventHandle e = free.back();
        free.pop_back();
        return e;
      }
    }
    return backend.create_event(device, /*enable_timing=*/false, /*blocking=*/false);
  }

  void give_back(runtime::EventHandle e) noexcept {
    std::lock_guard<std::mutex> lock(mutex);
    free.push_back(e);
  }

  runtime::Backend& backend;
  const int device;
  std::mutex mutex;
  std::vector<runtime::EventHandle> free;
};

namespace {

struct Marker {
  explicit Marker(std::shared_ptr<DeviceUpstream::EventPool> p)
      : event(p->take()), pool(std::move(p)) {}
  ~Marker() { pool->give_back(event); }
  Marker(const Marker&) = delete;
  Marker& operator=(const Marker&) = delete;

  const runtime::EventHandle event;
  const std::shared_ptr<DeviceUpstream::EventPool> pool;
};

runtime::EventHandle event_of(const StreamMarker& marker) {
  TIDE_INTERNAL_ASSERT(marker != nullptr, "null stream marker");
  return static_cast<const Marker*>(marker.get())->event;
}

}  // namespace

DeviceUpstream::DeviceUpstream(runtime::Backend& backend, int device)
    : backend_(backend), device_(device), events_(std::make_shared<EventPool>(backend, device)) {}

DeviceUpstream::~DeviceUpstream() = default;

void* DeviceUpstream::raw_malloc(size_t nbytes) {
  try {
    return backend_.malloc(device_, nbytes);
  } catch (const OutOfMemoryError&) {
    return nullptr;  // the caching allocator frees its cache, retries, then explains the OOM
  }
}

void DeviceUpstream::raw_free(void* ptr, size_t nbytes) noexcept {
  backend_.free(device_, ptr, nbytes);
}

StreamMarker DeviceUpstream::record(uint64_t stream_id) {
  const cuda::Stream stream = runtime::stream_of(device_, stream_id);
  auto marker = std::make_shared<Marker>(events_);
  backend_.record_event(marker->event, stream.native_handle());
  return marker;
}

bool DeviceUpstream::query(const StreamMarker& marker) {
  return backend_.query_event(event_of(marker));
}

void DeviceUpstream::synchronize(const StreamMarker& marker) {
  // A failed kernel is reported by the next synchronizing user call, not here: the allocator
  // only needs to know that the stream got past the marker.
  backend_.synchronize_event(event_of(marker));
}

int64_t DeviceUpstream::capacity() const { return backend_.memory_capacity(device_); }

int64_t DeviceUpstream::raw_in_use() const { return backend_.memory_in_use(device_); }

}  // namespace tide::memory
