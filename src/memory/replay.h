#pragma once
// Replay: runs a snapshot's allocation history through a fresh caching allocator whose
// upstream never runs out, so allocator settings can be compared on any machine, on traces
// recorded by tide or by torch (Note [Snapshot format]).

#include <cstdint>
#include <string>
#include <vector>

#include "memory/allocator_config.h"
#include "memory/snapshot.h"

namespace tide::memory {

/// What one device's replay found. Byte figures are the replaying allocator's statistics
/// (allocated = rounded block sizes, as torch's allocated_bytes).
struct DeviceReplay {
  int device = 0;
  int64_t trace_entries = 0;        // entries of the device's trace, every action
  int64_t allocations = 0;          // allocations replayed, initial ones included
  int64_t initial_allocations = 0;  // alive before the trace began (Note [Replay start])
  int64_t frees = 0;
  int64_t unmatched_frees = 0;      // frees of an address not alive: skipped
  int64_t peak_allocated = 0;
  int64_t peak_reserved = 0;
  int64_t peak_requested = 0;
  int64_t end_allocated = 0;
  int64_t end_reserved = 0;
  int64_t snapshot_reserved = 0;    // the snapshot's segments: what the recorder held at the end
  /// 1 - peak allocated / peak reserved (0 when nothing was reserved).
  double fragmentation() const;
};

struct ReplayResult {
  std::vector<DeviceReplay> devices;
  /// False when the snapshot has no trace entries (history was not recorded): only the
  /// allocations alive in its segments were replayed.
  bool had_history = false;
};

/// Replays every device of `snapshot` through its own fresh CachingAllocator with `config`:
/// "alloc" entries allocate, "free_requested" entries free (matched by address); the other
/// actions describe the recording allocator's own decisions and are ignored. Raises
/// tide::Error when the snapshot holds nothing to replay.
ReplayResult replay_snapshot(const Snapshot& snapshot, const AllocatorConfig& config,
                             const std::string& source);

}  // namespace tide::memory
