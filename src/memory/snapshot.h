#pragma once
// Memory snapshots: the caching allocators' state and history as JSON with the structure of
// torch.cuda.memory._snapshot() (plus "op" and "scope"), and the reader that `tide memviz`
// and `tide replay` share, which accepts tide's snapshots and torch's alike.
//
// Note [Snapshot format]: the JSON is torch's _snapshot() dictionary:
//   {"segments": [{"device", "address", "total_size", "allocated_size", "active_size",
//                  "requested_size", "stream", "segment_type", "segment_pool_id",
//                  "is_expandable", "frames", "blocks": [{"address", "size", "requested_size",
//                  "state", "frames", "op", "scope"}], "op", "scope"}],
//    "device_traces": [[{"action", "addr", "size", "stream", "time_us", "frames", "op",
//                        "scope"}]],   // one list per device index, oldest entry first
//    "allocator_settings": {...}}
// so torch's own tools (_memory_viz.py, pytorch.org/memory_viz after json→pickle) read it.
// tide records no stack frames: "frames" is always empty, and "op" (the tide op that
// allocated: "empty", "add", ...) and "scope" (the innermost tide::Scope) say instead where
// memory came from; both are null when unknown. Block states are torch's:
// "active_allocated", "active_pending_free" (freed, waiting for other streams' work) and
// "inactive" (cached, free for reuse).

#include <cstdint>
#include <string>
#include <vector>

namespace tide::memory {

class CachingAllocator;

/// torch's _snapshot() structure for every allocator given (Note [Snapshot format]);
/// device_traces has one list per device index, at least `device_count` of them.
std::string snapshot_json(const std::vector<CachingAllocator*>& allocators, int device_count = 0);

/// A snapshot read back from JSON (tide's or torch's), with what memviz and replay need.
struct SnapshotBlock {
  uint64_t address = 0;
  int64_t size = 0;
  int64_t requested_size = 0;
  std::string state;  // "active_allocated", "active_pending_free" or "inactive"
  std::string op;     // empty when unknown
  std::string scope;  // for torch snapshots: the innermost python frame, when recorded
};
struct SnapshotSegment {
  int device = 0;
  uint64_t address = 0;
  int64_t total_size = 0;
  int64_t allocated_size = 0;
  int64_t active_size = 0;
  uint64_t stream = 0;
  std::string segment_type;
  std::vector<SnapshotBlock> blocks;
};
struct SnapshotTraceEntry {
  std::string action;  // "alloc", "free_requested", "free_completed", "segment_alloc", ...
  uint64_t addr = 0;
  int64_t size = 0;
  uint64_t stream = 0;
  std::string op;
  std::string scope;
};
struct Snapshot {
  std::vector<SnapshotSegment> segments;
  std::vector<std::vector<SnapshotTraceEntry>> device_traces;  // index: device
  /// The devices that have a segment or a trace entry, ascending.
  std::vector<int> devices() const;
  /// Whether any device has a trace entry (false: history was not recorded).
  bool has_history() const;
};

/// Parses a snapshot's JSON text; `source` names it in errors ("[who] 'source' ...").
/// Raises tide::Error when the text is not JSON or not a memory snapshot.
Snapshot parse_snapshot(const std::string& json_text, const std::string& source,
                        const std::string& who);
/// Reads and parses the file at `path`; raises tide::Error naming the file when it is
/// missing, unreadable, a pickle (torch's _dump_snapshot) or not a snapshot.
Snapshot read_snapshot_file(const std::string& path, const std::string& who);

/// Allocations and frees of one device in trace order, matched by address. Allocations alive
/// before the trace began (their first event is a free, or they are active in the snapshot's
/// segments without any trace event) come first, marked `initial`.
struct AllocationEvent {
  enum class Kind { Alloc, Free };
  Kind kind;
  uint64_t addr;
  int64_t size;
  uint64_t stream;
  bool initial;  // alive when the trace began
  const SnapshotTraceEntry* entry;  // the trace entry, or nullptr for an initial allocation
  const SnapshotBlock* block;       // the snapshot block of an initial allocation, or nullptr
};
struct DeviceEvents {
  std::vector<AllocationEvent> events;
  int64_t initial_allocations = 0;
  /// free_requested entries whose address was never allocated (cannot happen in a complete
  /// trace); they are skipped.
  int64_t unmatched_frees = 0;
};
DeviceEvents allocation_events(const Snapshot& snapshot, int device);

}  // namespace tide::memory
