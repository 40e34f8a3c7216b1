#pragma once
// tide::cuda memory history and snapshots, as torch.cuda.memory._record_memory_history,
// _snapshot and _dump_snapshot: JSON with the structure of torch's snapshot, plus "op" and
// "scope" on every block and trace entry (src/memory/snapshot.h, Note [Snapshot format]).
// `tide memviz SNAPSHOT -o memory.html` draws one; `tide replay SNAPSHOT` replays it.

#include <cstddef>
#include <string>

namespace tide::cuda {

/// Starts (or stops) recording every device's allocation history: alloc, free_requested,
/// free_completed, segment_alloc, segment_free and oom events, the newest `max_entries` per
/// device kept (older ones are dropped first). Enabling starts a fresh history; disabling
/// stops recording and keeps what was recorded, so a later snapshot still shows it.
void record_memory_history(bool enabled, size_t max_entries = 100000);
/// Every device's segments, blocks and recorded history as JSON (torch's _snapshot()).
std::string memory_snapshot();
/// Writes memory_snapshot() to `path`; raises tide::Error when the file cannot be written.
void dump_snapshot(const std::string& path);

}  // namespace tide::cuda
