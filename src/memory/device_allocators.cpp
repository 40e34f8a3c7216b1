#include "memory/device_allocators.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "memory/caching_allocator.h"
#include "memory/device_upstream.h"
#include "runtime/fork_safety.h"
#include "runtime/registry.h"
#include "runtime/stream_pool.h"
#include "tide/error.h"

namespace tide::memory {
namespace {

// Note [Device deleters]: a DataPtr's deleter gets (context, ptr, nbytes) but not the device,
// and the context is the Block. Rather than allocate a {device, block} pair per tensor, each
// device gets its own deleter function, one template instance per device index.
constexpr int kMaxDevices = 64;

std::array<std::atomic<CachingAllocator*>, kMaxDevices> g_allocators{};
std::mutex g_create_mutex;  // serializes creation only; lookups are one atomic load

template <int D>
void free_block(void* block, void* /*ptr*/, size_t /*nbytes*/) {
  if (TIDE_UNLIKELY(runtime::in_bad_fork())) return;  // the parent's cache (Note [Fork safety])
  g_allocators[D].load(std::memory_order_acquire)->free(static_cast<Block*>(block));
}

template <size_t... I>
constexpr std::array<DataPtr::Deleter, sizeof...(I)> make_deleters(std::index_sequence<I...>) {
  return {&free_block<static_cast<int>(I)>...};
}

constexpr std::array<DataPtr::Deleter, kMaxDevices> kDeleters =
    make_deleters(std::make_index_sequence<kMaxDevices>{});

// What the process's environment asks of every device allocator, read at the first creation.
// A function-local static whose initializer throws is initialized again at the next call, so
// a bad value is reported at every use until it is fixed (Note [Choosing the cuda backend]).
struct ProcessSettings {
  AllocatorConfig config;
  int64_t fault_oom_at = 0;  // TIDE_FAULT_OOM_AT: arm every device's allocator (0: off)
};

int64_t parse_fault_oom_at() {
  const char* v = std::getenv("TIDE_FAULT_OOM_AT");
  if (v == nullptr || *v == '\0') return 0;
  const std::string s(v);
  size_t used = 0;
  long long n = -1;
  try {
    n = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  TIDE_CHECK(used == s.size() && n >= 0, "[cuda allocator] TIDE_FAULT_OOM_AT must be a "
             "non-negative integer (the n-th caching-allocator allocation fails; 0 disables), "
             "got '", s, "'");
  return n;
}

const ProcessSettings& process_settings() {
  static const ProcessSettings settings{AllocatorConfig::from_env(), parse_fault_oom_at()};
  return settings;
}

CachingAllocator* create(int device) {
  const ProcessSettings& settings = process_settings();
  std::lock_guard<std::mutex> lock(g_create_mutex);
  CachingAllocator* a = g_allocators[device].load(std::memory_order_acquire);
  if (a != nullptr) return a;
  runtime::Backend& backend = runtime::cuda_backend("cuda allocator");
  a = new CachingAllocator(device, std::make_unique<DeviceUpstream>(backend, device),
                           settings.config);
  if (settings.fault_oom_at > 0) a->inject_oom_at(settings.fault_oom_at);
  g_allocators[device].store(a, std::memory_order_release);
  return a;
}

}  // namespace

CachingAllocator& device_allocator(int device) {
  TIDE_CHECK(device >= 0 && device < kMaxDevices, "[cuda allocator] tide supports cuda devices "
             "0..", kMaxDevices - 1, ", got cuda:", device, "; hide devices with "
             "CUDA_VISIBLE_DEVICES");
  CachingAllocator* a = g_allocators[device].load(std::memory_order_acquire);
  return a != nullptr ? *a : *create(device);
}

CachingAllocator* device_allocator_if_created(int device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  return g_allocators[device].load(std::memory_order_acquire);
}

DataPtr allocate_device_memory(int device, size_t nbytes, const char* op) {
  // Before any lock: one a parent's thread held at fork() is never released in the child.
  if (TIDE_UNLIKELY(runtime::in_bad_fork())) runtime::raise_bad_fork(op != nullptr ? op : "cuda allocator");
  const uint64_t stream = runtime::current_stream_of(device).id();
  const Device where(kCUDA, device);
  // As torch: an empty tensor takes no block, and the allocator does not count it.
  if (nbytes == 0) return DataPtr(nullptr, 0, where, stream, nullptr, nullptr);
  CachingAllocator& allocator = device_allocator(device);
  Block* block = allocator.malloc(nbytes, stream, op);
  return DataPtr(CachingAllocator::ptr(block), nbytes, where, stream, block,
                 kDeleters[static_cast<size_t>(device)]);
}

bool is_caching_allocator_memory(const DataPtr& ptr) {
  const Device d = ptr.device();
  return d.is_cuda() && d.index() >= 0 && d.index() < kMaxDevices &&
         ptr.deleter() == kDeleters[static_cast<size_t>(d.index())];
}

void record_stream_use(const DataPtr& ptr, const cuda::Stream& stream) {
  if (!is_caching_allocator_memory(ptr) || ptr.device().index() != stream.device_index() ||
      ptr.stream() == stream.id()) {
    return;
  }
  g_allocators[static_cast<size_t>(stream.device_index())]
      .load(std::memory_order_acquire)
      ->record_stream(static_cast<Block*>(ptr.context()), stream.id());
}

}  // namespace tide::memory
