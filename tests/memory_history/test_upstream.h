#pragma once
// An Upstream for the history tests: addresses from a counter (the memory is never touched)
// and stream markers that complete only when the test says so.

#include <cstdint>
#include <memory>
#include <vector>

#include "memory/upstream.h"

namespace tide::memory::testing {

class TestUpstream final : public Upstream {
 public:
  void* raw_malloc(size_t nbytes) override {
    uintptr_t p = next_;
    next_ += (nbytes + kAlign - 1) / kAlign * kAlign;
    in_use_ += static_cast<int64_t>(nbytes);
    return reinterpret_cast<void*>(p);
  }
  void raw_free(void*, size_t nbytes) noexcept override { in_use_ -= static_cast<int64_t>(nbytes); }
  StreamMarker record(uint64_t) override {
    auto done = std::make_shared<bool>(false);
    markers_.push_back(done);
    return done;
  }
  bool query(const StreamMarker& m) override { return *static_cast<bool*>(m.get()); }
  void synchronize(const StreamMarker& m) override { *static_cast<bool*>(m.get()) = true; }
  int64_t capacity() const override { return int64_t{1} << 40; }
  int64_t raw_in_use() const override { return in_use_; }

  /// Completes every marker recorded so far.
  void complete_markers() {
    for (auto& m : markers_) *m = true;
  }

  static constexpr uintptr_t kBase = uintptr_t{0x7f00} << 32;

 private:
  static constexpr uintptr_t kAlign = uintptr_t{2} << 20;
  uintptr_t next_ = kBase;
  int64_t in_use_ = 0;
  std::vector<std::shared_ptr<bool>> markers_;
};

}  // namespace tide::memory::testing
