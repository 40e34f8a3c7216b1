#pragma once
// UnlimitedUpstream: device memory that never runs out and is never touched, for driving the
// caching allocator without a device (tide replay, the allocator benchmarks).

#include <cstdint>
#include <limits>
#include <memory>

#include "memory/upstream.h"

namespace tide::memory {

/// Addresses from a counter, kept apart and 2 MiB aligned as real device memory is; stream
/// markers complete at once, since no work runs on these streams.
class UnlimitedUpstream final : public Upstream {
 public:
  void* raw_malloc(size_t nbytes) override {
    uintptr_t ptr = next_;
    next_ += (nbytes + kAlign - 1) / kAlign * kAlign + kAlign;
    in_use_ += static_cast<int64_t>(nbytes);
    return reinterpret_cast<void*>(ptr);
  }
  void raw_free(void*, size_t nbytes) noexcept override { in_use_ -= static_cast<int64_t>(nbytes); }
  StreamMarker record(uint64_t) override { return done_; }
  bool query(const StreamMarker&) override { return true; }
  void synchronize(const StreamMarker&) override {}
  // A quarter of int64's range: "unlimited", with room for the allocator's arithmetic.
  int64_t capacity() const override { return std::numeric_limits<int64_t>::max() / 4; }
  int64_t raw_in_use() const override { return in_use_; }

 private:
  static constexpr uintptr_t kAlign = uintptr_t{2} << 20;
  uintptr_t next_ = uintptr_t{1} << 40;
  int64_t in_use_ = 0;
  StreamMarker done_ = std::make_shared<int>(0);
};

}  // namespace tide::memory
