#pragma once
// OpRing: the last operations enqueued on one stream, for naming an op that failed later.

#include <array>
#include <cstdint>

#include "runtime/backend.h"

namespace tide::runtime {

/// Note [Async error provenance]: a stream remembers its last kCapacity launches as
/// (sequence number, op, scope), written at enqueue. When the task with sequence number n
/// fails, the stream looks n up here; on a real GPU the kernel can only report n (through a
/// device-side flag), so the lookup is what lets a KernelError name the op and its scope.
/// Names are pointers to string literals or interned scope names, so recording costs three
/// stores. The owner serializes access (the stream's queue lock).
class OpRing {
 public:
  static constexpr uint64_t kCapacity = 1024;

  void put(uint64_t seq, const LaunchInfo& info) {
    Entry& e = entries_[seq % kCapacity];
    e.seq = seq;
    e.info = info;
  }
  /// The op enqueued as `seq`, or {nullptr, nullptr} if it has been overwritten.
  LaunchInfo find(uint64_t seq) const {
    const Entry& e = entries_[seq % kCapacity];
    return e.seq == seq ? e.info : LaunchInfo{nullptr, nullptr};
  }

 private:
  struct Entry {
    uint64_t seq = 0;
    LaunchInfo info{nullptr, nullptr};
  };
  std::array<Entry, kCapacity> entries_{};
};

}  // namespace tide::runtime
