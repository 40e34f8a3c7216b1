#pragma once
// AllocatorStats: the caching allocator's counters, with torch's key names and semantics.

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace tide::memory {

/// One counter as torch keeps it: `current` now, its `peak` since the last reset, and the
/// running totals `allocated` (every increase) and `freed` (every decrease).
struct Stat {
  int64_t current = 0;
  int64_t peak = 0;
  int64_t allocated = 0;
  int64_t freed = 0;

  void increase(int64_t amount) {
    current += amount;
    if (current > peak) peak = current;
    allocated += amount;
  }
  void decrease(int64_t amount) {
    current -= amount;
    freed += amount;
  }
  void reset_peak() { peak = current; }
  void reset_accumulated() { allocated = freed = 0; }
};

/// torch's StatType: every counter exists for all blocks and per pool.
enum StatPool : int { kAllPools = 0, kSmallPool = 1, kLargePool = 2 };
using StatArray = std::array<Stat, 3>;

/// Adds to ".all" and to the pool's own entry.
inline void stat_increase(StatArray& s, StatPool pool, int64_t amount) {
  s[kAllPools].increase(amount);
  s[pool].increase(amount);
}
inline void stat_decrease(StatArray& s, StatPool pool, int64_t amount) {
  s[kAllPools].decrease(amount);
  s[pool].decrease(amount);
}

/// Every figure torch's memory_stats() reports (expandable segments aside).
struct AllocatorStats {
  StatArray allocation;            // allocated blocks (live tensors' blocks)
  StatArray segment;               // segments obtained from the device
  StatArray active;                // allocated blocks + blocks freed but waiting on streams
  StatArray inactive_split;        // free blocks inside a segment that is split
  StatArray allocated_bytes;
  StatArray reserved_bytes;        // bytes in segments
  StatArray active_bytes;
  StatArray inactive_split_bytes;
  StatArray requested_bytes;       // the sizes asked for, before rounding
  int64_t num_alloc_retries = 0;   // raw mallocs retried after freeing the cache
  int64_t num_ooms = 0;            // OutOfMemoryErrors raised
  int64_t num_sync_all_streams = 0;  // waits on every pending stream marker
  int64_t num_device_alloc = 0;    // successful raw mallocs
  int64_t num_device_free = 0;     // raw frees
  Stat oversize_allocations;       // allocations of blocks >= max_split_size
  Stat oversize_segments;          // segments >= max_split_size
  int64_t max_split_size = -1;     // bytes; -1 when unlimited (torch reports SIZE_MAX as -1)

  /// "allocated_bytes.all.current", "num_ooms", ... (torch's flattened memory_stats()).
  std::map<std::string, int64_t> to_map() const;
  /// Peaks become the current values (torch's reset_peak_memory_stats).
  void reset_peak();
  /// Running totals, retries, OOMs and device call counts go back to 0
  /// (torch's reset_accumulated_memory_stats).
  void reset_accumulated();
};

}  // namespace tide::memory
