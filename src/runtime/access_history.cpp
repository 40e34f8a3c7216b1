#include "runtime/access_history.h"

#include <algorithm>
#include <iterator>

namespace tide::runtime {

AccessHistory::Bucket& AccessHistory::bucket_covering(uintptr_t lo, uintptr_t hi) {
  auto it = buckets_.upper_bound(lo);
  if (it != buckets_.begin() && std::prev(it)->second.end > lo) it = std::prev(it);
  // The common case: one bucket already covers the range.
  if (it != buckets_.end() && it->first <= lo && it->second.end >= hi) return it->second;
  uintptr_t base = lo, end = hi;
  std::vector<RecordedAccess> merged;
  while (it != buckets_.end() && it->first < end) {
    if (it->second.end <= base) {
      ++it;
      continue;
    }
    base = std::min(base, it->first);
    end = std::max(end, it->second.end);
    std::move(it->second.accesses.begin(), it->second.accesses.end(), std::back_inserter(merged));
    it = buckets_.erase(it);
  }
  Bucket& b = buckets_[base];
  b.end = end;
  b.accesses = std::move(merged);
  return b;
}

void AccessHistory::record(const MemoryAccess& access,
                           const std::shared_ptr<const SanitizedOp>& op) {
  const uintptr_t base = std::min(access.base, access.lo);
  const uintptr_t end = std::max(access.base + access.size, access.hi);
  std::vector<RecordedAccess>& list = bucket_covering(base, end).accesses;
  const auto covered = [&](const RecordedAccess& r) {
    return access.lo <= r.lo && r.hi <= access.hi;
  };
  if (access.write) {
    std::erase_if(list, covered);
  } else {
    std::erase_if(list, [&](const RecordedAccess& r) {
      return !r.write && r.op->slot == op->slot && covered(r);
    });
  }
  list.push_back(RecordedAccess{access.lo, access.hi, access.write, op});
}

void AccessHistory::forget(uintptr_t lo, uintptr_t hi) {
  auto it = first_overlap(buckets_, lo, hi);
  while (it != buckets_.end() && it->first < hi) {
    Bucket& bucket = it->second;
    std::erase_if(bucket.accesses,
                  [&](const RecordedAccess& r) { return lo <= r.lo && r.hi <= hi; });
    const bool inside = lo <= it->first && bucket.end <= hi;
    it = inside || bucket.accesses.empty() ? buckets_.erase(it) : std::next(it);
  }
}

size_t AccessHistory::size() const {
  size_t n = 0;
  for (const auto& [base, bucket] : buckets_) n += bucket.accesses.size();
  return n;
}

}  // namespace tide::runtime
