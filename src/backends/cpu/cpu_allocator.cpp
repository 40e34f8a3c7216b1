// The cpu allocator: 64-byte aligned host memory, with a bounded cache of large buffers.
// See Note [cpu buffer cache] in tide/allocator.h.

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#include "tide/allocator.h"
#include "tide/error.h"

namespace tide {
namespace {

constexpr size_t kAlignment = 64;
constexpr size_t kCacheMinBytes = size_t{1} << 20;  // below this, malloc is already fast
constexpr size_t kCacheRound = size_t{1} << 16;     // so near-equal sizes share buffers

size_t default_cache_limit() {
  if (const char* v = std::getenv("TIDE_CPU_CACHE_LIMIT")) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (end != v && *end == '\0') return n;
  }
  return size_t{1} << 30;
}

class CpuAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    size_t size = round(nbytes);
    void* p = nullptr;
    if (size >= kCacheMinBytes) p = take_cached(size);
    if (!p) {
      p = std::aligned_alloc(kAlignment, size == 0 ? kAlignment : size);
      TIDE_CHECK_T(OutOfMemoryError, p != nullptr, "[cpu allocator] could not allocate ", nbytes,
                   " bytes of host memory; free some tensors or reduce the batch size");
    }
    return DataPtr(p, nbytes, Device(kCPU), 0, this, &CpuAllocator::release);
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [size, list] : cache_) {
      for (void* p : list) std::free(p);
    }
    cache_.clear();
    cached_bytes_ = 0;
  }

  std::map<std::string, int64_t> stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {{"cached_bytes", static_cast<int64_t>(cached_bytes_)},
            {"cache_limit_bytes", static_cast<int64_t>(limit_)},
            {"cache_hits", hits_},
            {"cache_misses", misses_}};
  }

  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
    trim_locked();
  }

  ~CpuAllocator() override { empty_cache(); }

 private:
  static size_t round(size_t n) {
    if (n < kCacheMinBytes) return (n + kAlignment - 1) / kAlignment * kAlignment;
    return (n + kCacheRound - 1) / kCacheRound * kCacheRound;
  }

  void* take_cached(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(size);
    if (it == cache_.end() || it->second.empty()) {
      ++misses_;
      return nullptr;
    }
    void* p = it->second.back();
    it->second.pop_back();
    cached_bytes_ -= size;
    ++hits_;
    return p;
  }

  static void release(void* ctx, void* ptr, size_t nbytes) {
    static_cast<CpuAllocator*>(ctx)->give_back(ptr, round(nbytes));
  }

  void give_back(void* p, size_t size) {
    if (size >= kCacheMinBytes) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cached_bytes_ + size <= limit_) {
        cache_[size].push_back(p);
        cached_bytes_ += size;
        return;
      }
    }
    std::free(p);
  }

  void trim_locked() {
    for (auto it = cache_.begin(); it != cache_.end() && cached_bytes_ > limit_;) {
      while (!it->second.empty() && cached_bytes_ > limit_) {
        std::free(it->second.back());
        it->second.pop_back();
        cached_bytes_ -= it->first;
      }
      it = it->second.empty() ? cache_.erase(it) : std::next(it);
    }
  }

  std::mutex mutex_;
  std::map<size_t, std::vector<void*>> cache_;
  size_t cached_bytes_ = 0;
  size_t limit_ = default_cache_limit();
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

CpuAllocator& instance() {
  // Leaked on purpose: storages may be freed during static destruction.
  static auto* a = new CpuAllocator();
  return *a;
}

}  // namespace

Allocator* cpu_allocator() { return &instance(); }
void cpu_empty_cache() { instance().empty_cache(); }
std::map<std::string, int64_t> cpu_memory_stats() { return instance().stats(); }
void set_cpu_cache_limit(int64_t bytes) {
  TIDE_CHECK(bytes >= 0, "[set_cpu_cache_limit] expected a non-negative byte count, got ", bytes);
  instance().set_limit(static_cast<size_t>(bytes));
}

}  // namespace tide
