#pragma once
// FakeUpstream: a device for the caching allocator's tests — capacity-limited raw memory
// (addresses only, never touched), failures on demand, and stream markers that complete
// when the test says so.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "memory/caching_allocator.h"
#include "memory/upstream.h"

namespace tide::memory::testing {

class FakeUpstream : public Upstream {
 public:
  explicit FakeUpstream(int64_t capacity) : capacity_(capacity) {}

  void* raw_malloc(size_t nbytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++malloc_calls;
    if (fail_all_ || fail_next_ > 0) {
      if (fail_next_ > 0) --fail_next_;
      return nullptr;
    }
    if (in_use_ + static_cast<int64_t>(nbytes) > capacity_) return nullptr;
    // Fresh, 2 MiB-aligned fake addresses; never reused so stale blocks stand out.
    uint64_t addr = next_;
    next_ += (nbytes + (2u << 20) - 1) / (2u << 20) * (2u << 20) + (2u << 20);
    in_use_ += static_cast<int64_t>(nbytes);
    live_[addr] = nbytes;
    return reinterpret_cast<void*>(addr);
  }
  void raw_free(void* ptr, size_t nbytes) noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++free_calls;
    auto it = live_.find(reinterpret_cast<uint64_t>(ptr));
    if (it == live_.end() || it->second != nbytes) {
      bad_frees++;
      return;
    }
    live_.erase(it);
    in_use_ -= static_cast<int64_t>(nbytes);
  }
  StreamMarker record(uint64_t stream_id) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto m = std::make_shared<Marker>();
    m->stream = stream_id;
    markers_.push_back(m);
    return m;
  }
  bool query(const StreamMarker& marker) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<Marker*>(marker.get())->done;
  }
  void synchronize(const StreamMarker& marker) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++synchronize_calls;
    static_cast<Marker*>(marker.get())->done = true;  // waiting finishes the work
  }
  int64_t capacity() const override { return capacity_; }
  int64_t raw_in_use() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return in_use_;
  }

  /// The next `n` raw mallocs fail (as a device out of memory).
  void fail_next(int n) {
    std::lock_guard<std::mutex> lock(mutex_);
    fail_next_ = n;
  }
  void fail_all(bool on) {
    std::lock_guard<std::mutex> lock(mutex_);
    fail_all_ = on;
  }
  /// Completes every marker recorded so far on `stream`.
  void complete(uint64_t stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& m : markers_) {
      if (m->stream == stream) m->done = true;
    }
  }
  void complete_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& m : markers_) m->done = true;
  }
  size_t live_segments() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.size();
  }

  int malloc_calls = 0;
  int free_calls = 0;
  int synchronize_calls = 0;
  int bad_frees = 0;

 private:
  struct Marker {
    uint64_t stream = 0;
    bool done = false;
  };
  mutable std::mutex mutex_;
  int64_t capacity_;
  int64_t in_use_ = 0;
  uint64_t next_ = uint64_t{1} << 40;
  std::map<uint64_t, size_t> live_;
  std::vector<std::shared_ptr<Marker>> markers_;
  int fail_next_ = 0;
  bool fail_all_ = false;
};

/// An allocator over a FakeUpstream; `up` stays valid while `alloc` lives.
struct FakeDevice {
  explicit FakeDevice(int64_t capacity = int64_t{1} << 34, AllocatorConfig config = {}) {
    auto u = std::make_unique<FakeUpstream>(capacity);
    up = u.get();
    alloc = std::make_unique<CachingAllocator>(0, std::move(u), config);
  }
  int64_t stat(const std::string& key) {
    auto s = alloc->stats();
    auto it = s.find(key);
    if (it == s.end()) throw std::out_of_range("no stat " + key);
    return it->second;
  }
  FakeUpstream* up;
  std::unique_ptr<CachingAllocator> alloc;
};

}  // namespace tide::memory::testing
