#include "memory/replay.h"

#include <limits>
#include <memory>
#include <unordered_map>

#include "memory/caching_allocator.h"
#include "memory/unlimited_upstream.h"
#include "tide/error.h"

namespace tide::memory {

// Note [Replay start]: a trace rarely starts with an empty allocator. History may be switched
// on mid-run, and the ring of max_entries drops the oldest entries. An address whose first
// event is a free was therefore alive when the trace began, and so is an active block of the
// snapshot that no trace entry mentions; both are allocated first (snapshot.h,
// allocation_events), in that order, so the peaks count them.

namespace {

int64_t stat(const StatMap& stats, const char* key) {
  auto it = stats.find(key);
  TIDE_INTERNAL_ASSERT(it != stats.end(), "statistic ", key, " missing");
  return it->second;
}

}  // namespace

double DeviceReplay::fragmentation() const {
  if (peak_reserved <= 0) return 0.0;
  return 1.0 - static_cast<double>(peak_allocated) / static_cast<double>(peak_reserved);
}

ReplayResult replay_snapshot(const Snapshot& snapshot, const AllocatorConfig& config,
                             const std::string& source) {
  ReplayResult result;
  result.had_history = snapshot.has_history();
  int64_t replayed = 0;
  for (int device : snapshot.devices()) {
    DeviceEvents events = allocation_events(snapshot, device);
    DeviceReplay r;
    r.device = device;
    if (static_cast<size_t>(device) < snapshot.device_traces.size()) {
      r.trace_entries = static_cast<int64_t>(snapshot.device_traces[static_cast<size_t>(device)].size());
    }
    r.initial_allocations = events.initial_allocations;
    r.unmatched_frees = events.unmatched_frees;
    for (const SnapshotSegment& seg : snapshot.segments) {
      if (seg.device == device) r.snapshot_reserved += seg.total_size;
    }

    CachingAllocator allocator(device, std::make_unique<UnlimitedUpstream>(), config);
    std::unordered_map<uint64_t, Block*> live;
    for (const AllocationEvent& e : events.events) {
      if (e.kind == AllocationEvent::Kind::Alloc) {
        Block* block = allocator.malloc(static_cast<size_t>(e.size), e.stream, "replay");
        live[e.addr] = block;
        ++r.allocations;
      } else {
        auto it = live.find(e.addr);
        TIDE_INTERNAL_ASSERT(it != live.end(), "allocation_events paired a free with no alloc");
        allocator.free(it->second);
        live.erase(it);
        ++r.frees;
      }
    }
    StatMap stats = allocator.stats();
    r.peak_allocated = stat(stats, "allocated_bytes.all.peak");
    r.peak_reserved = stat(stats, "reserved_bytes.all.peak");
    r.peak_requested = stat(stats, "requested_bytes.all.peak");
    r.end_allocated = stat(stats, "allocated_bytes.all.current");
    r.end_reserved = stat(stats, "reserved_bytes.all.current");
    for (auto& [addr, block] : live) allocator.free(block);
    replayed += r.allocations;
    result.devices.push_back(r);
  }
  TIDE_CHECK(replayed > 0, "[tide replay] '", source,
             "' holds no allocation to replay: its device_traces are empty and no block of its "
             "segments is active. Record history before the workload runs "
             "(tide::cuda::record_memory_history(true), or "
             "torch.cuda.memory._record_memory_history() in PyTorch), then take the snapshot");
  return result;
}

}  // namespace tide::memory
