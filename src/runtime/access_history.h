#pragma once
// AccessHistory: which ops last read and wrote each byte range, for the stream sanitizer.

#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <vector>

#include "runtime/backend.h"
#include "runtime/backtrace.h"
#include "runtime/sanitizer.h"

namespace tide::runtime {

/// One launch as the sanitizer remembers it (Note [Stream sanitizer]).
struct SanitizedOp {
  LaunchInfo info;     // op and innermost scope, as the OpRing keeps them
  int device;          // the stream's device
  uint64_t stream_id;  // the stream's runtime id (Note [Stream pool])
  size_t slot;         // the stream's component in vector clocks
  uint64_t seq;        // the stream's own clock value for this launch (1, 2, ...)
  RawBacktrace where;  // enqueue site
};

/// One recorded access of an op to [lo, hi).
struct RecordedAccess {
  uintptr_t lo;
  uintptr_t hi;
  bool write;
  std::shared_ptr<const SanitizedOp> op;
};

/// Note [Access history layout]: accesses are grouped by allocation (a bucket per storage's
/// [base, base + size)), found by one ordered-map lookup. Buckets never overlap: a storage
/// that overlaps others (from_blob over memory another tensor holds) merges them into one.
/// Within a bucket, a checked write drops every access it covers (whatever comes after the
/// write and is ordered after it is ordered after them too, and whatever is not conflicts
/// with the write itself), and a read drops earlier reads of its stream that it covers, so a
/// bucket holds the last writes and the reads since, as torch's TensorInfo does per pointer.
/// Not thread-safe: the sanitizer's lock serializes it.
class AccessHistory {
 public:
  /// The first recorded access conflicting with `access` (overlapping bytes, and a write on
  /// at least one side) for which `ordered(op)` is false; nullptr when there is none.
  template <class Ordered>
  const RecordedAccess* find_race(const MemoryAccess& access, Ordered ordered) const {
    for (auto it = first_overlap(buckets_, access.lo, access.hi);
         it != buckets_.end() && it->first < access.hi; ++it) {
      for (const RecordedAccess& r : it->second.accesses) {
        if (r.lo < access.hi && access.lo < r.hi && (r.write || access.write) && !ordered(*r.op)) {
          return &r;
        }
      }
    }
    return nullptr;
  }
  /// Records an access that find_race cleared.
  void record(const MemoryAccess& access, const std::shared_ptr<const SanitizedOp>& op);
  /// Forgets every access inside [lo, hi) (the allocator freed it).
  void forget(uintptr_t lo, uintptr_t hi);
  void clear() { buckets_.clear(); }
  /// Number of accesses recorded (tests).
  size_t size() const;

 private:
  struct Bucket {
    uintptr_t end;
    std::vector<RecordedAccess> accesses;
  };
  using Map = std::map<uintptr_t, Bucket>;
  /// The first bucket of `map` that overlaps [lo, hi), or end() (buckets do not overlap one
  /// another, so only the one before lo's position can start earlier).
  template <class M>
  static auto first_overlap(M& map, uintptr_t lo, uintptr_t hi) -> decltype(map.begin()) {
    auto it = map.upper_bound(lo);
    if (it != map.begin()) {
      auto before = std::prev(it);
      if (before->second.end > lo) return before;
    }
    return it != map.end() && it->first < hi ? it : map.end();
  }
  /// The one bucket covering [lo, hi), made by merging what overlaps it.
  Bucket& bucket_covering(uintptr_t lo, uintptr_t hi);

  Map buckets_;
};

}  // namespace tide::runtime
