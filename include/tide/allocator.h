#pragma once
// Allocator interface and DataPtr, the owning handle every Storage holds.
// Note [DataPtr]: a DataPtr already carries everything a GPU caching allocator needs later
// (device, allocation stream, a deleter with context), so adding device allocators does not
// reshape Storage.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "tide/device.h"

namespace tide {

class DataPtr {
 public:
  using Deleter = void (*)(void* ctx, void* ptr, size_t nbytes);

  DataPtr() = default;
  DataPtr(void* ptr, size_t nbytes, Device device, uint64_t stream, void* ctx, Deleter deleter)
      : ptr_(ptr), nbytes_(nbytes), device_(device), stream_(stream), ctx_(ctx), deleter_(deleter) {}
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& o) noexcept { *this = std::move(o); }
  DataPtr& operator=(DataPtr&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      nbytes_ = std::exchange(o.nbytes_, 0);
      device_ = o.device_;
      stream_ = o.stream_;
      ctx_ = std::exchange(o.ctx_, nullptr);
      deleter_ = std::exchange(o.deleter_, nullptr);
    }
    return *this;
  }
  ~DataPtr() { reset(); }

  void* get() const { return ptr_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  /// Id of the stream the memory was allocated on (0: the default stream, or none on cpu).
  uint64_t stream() const { return stream_; }
  void* context() const { return ctx_; }
  /// Which allocator's memory this is (allocators compare it to tell their own DataPtrs).
  Deleter deleter() const { return deleter_; }

  void reset() noexcept {
    if (deleter_) deleter_(ctx_, ptr_, nbytes_);
    ptr_ = nullptr;
    nbytes_ = 0;
    ctx_ = nullptr;
    deleter_ = nullptr;
  }

 private:
  void* ptr_ = nullptr;
  size_t nbytes_ = 0;
  Device device_{kCPU, -1};
  uint64_t stream_ = 0;
  void* ctx_ = nullptr;
  Deleter deleter_ = nullptr;
};

/// Hands out DataPtrs for one kind of memory. Thread-safe.
class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) = 0;
};

/// The host allocator for ordinary (pageable) cpu tensors.
/// Note [cpu buffer cache]: buffers of at least 1 MiB are kept after free (up to a bounded
/// total) and reused for requests of the same rounded size, so a loop that allocates large
/// results does not page-fault on every iteration the way malloc/mmap does.
Allocator* cpu_allocator();
/// Returns every cached cpu buffer to the system.
void cpu_empty_cache();
/// cpu allocator figures: "cached_bytes", "cache_limit_bytes", "cache_hits", "cache_misses".
std::map<std::string, int64_t> cpu_memory_stats();
/// Upper bound on what the cpu cache keeps (default 1 GiB, or TIDE_CPU_CACHE_LIMIT bytes).
void set_cpu_cache_limit(int64_t bytes);

}  // namespace tide
