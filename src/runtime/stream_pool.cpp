#include "runtime/stream_pool.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/fork_safety.h"
#include "tide/error.h"

namespace tide::runtime {
namespace {

constexpr int kPoolSize = cuda::Stream::kStreamsPerPool;

struct DevicePools {
  StreamHandle default_stream = nullptr;
  // [0]: priority 0, [1]: high priority. Streams are created on first hand-out, under
  // create_mutex; readers use the atomic without a lock.
  std::array<std::array<std::atomic<StreamHandle>, kPoolSize>, 2> streams{};
  std::array<std::atomic<uint32_t>, 2> next{};
  std::mutex create_mutex;
};

Backend* g_backend = nullptr;
std::unique_ptr<DevicePools[]> g_pools;
int g_device_count = 0;

// Ids of this thread's current stream per device (0: default); grows on demand.
thread_local std::vector<uint8_t> t_current;

uint64_t pool_id(int priority_class, int index) {
  return 1 + static_cast<uint64_t>(priority_class * kPoolSize + index);
}

StreamHandle pool_handle(int device, int priority_class, int index) {
  DevicePools& p = g_pools[device];
  std::atomic<StreamHandle>& slot = p.streams[priority_class][index];
  StreamHandle h = slot.load(std::memory_order_acquire);
  if (h != nullptr) return h;
  if (TIDE_UNLIKELY(in_bad_fork())) raise_bad_fork("cuda::Stream");  // Note [Fork safety]
  std::lock_guard<std::mutex> lock(p.create_mutex);
  h = slot.load(std::memory_order_relaxed);
  if (h == nullptr) {
    h = g_backend->create_stream(device, priority_class == 0 ? 0 : -1,
                                 pool_id(priority_class, index));
    slot.store(h, std::memory_order_release);
  }
  return h;
}

cuda::Stream stream_from_id(int device, uint64_t id) {
  if (id == 0) return default_stream_of(device);
  const int k = static_cast<int>(id - 1);
  return cuda::Stream(cuda::detail::FromPoolTag{}, device, id,
                      pool_handle(device, k / kPoolSize, k % kPoolSize));
}

}  // namespace

void init_stream_pools(Backend* backend, int device_count) {
  g_backend = backend;
  g_device_count = device_count;
  g_pools = std::make_unique<DevicePools[]>(static_cast<size_t>(device_count));
  for (int d = 0; d < device_count; ++d) g_pools[d].default_stream = backend->default_stream(d);
}

cuda::Stream default_stream_of(int device) {
  return cuda::Stream(cuda::detail::FromPoolTag{}, device, 0, g_pools[device].default_stream);
}

cuda::Stream next_pool_stream(int device, int priority) {
  const int priority_class = priority < 0 ? 1 : 0;
  const uint32_t n = g_pools[device].next[priority_class].fetch_add(1, std::memory_order_relaxed);
  const int index = static_cast<int>(n % kPoolSize);
  return cuda::Stream(cuda::detail::FromPoolTag{}, device, pool_id(priority_class, index),
                      pool_handle(device, priority_class, index));
}

cuda::Stream current_stream_of(int device) {
  const auto d = static_cast<size_t>(device);
  const uint64_t id = d < t_current.size() ? t_current[d] : 0;
  return stream_from_id(device, id);
}

cuda::Stream stream_of(int device, uint64_t id) { return stream_from_id(device, id); }

void set_current_stream(const cuda::Stream& stream) {
  const auto d = static_cast<size_t>(stream.device_index());
  TIDE_INTERNAL_ASSERT(stream.device_index() < g_device_count, "stream of an unknown device");
  if (t_current.size() <= d) t_current.resize(static_cast<size_t>(g_device_count), 0);
  t_current[d] = static_cast<uint8_t>(stream.id());
}

}  // namespace tide::runtime
