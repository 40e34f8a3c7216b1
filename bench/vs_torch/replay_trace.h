#pragma once
// The allocation trace PeakReserved replays through tide's and torch's caching allocators:
// real tensors allocated and freed in the trace's order on the current stream of device 0.
// Free of tide and torch headers, so both sides include it.
//
// Note [Replayed trace]: by default the synthetic training trace of allocator_bench
// (training_trace.h: 200 steps of a 12-layer GPT, sequence length changing every step, peak
// a few GiB); TIDE_BENCH_TRACE=<snapshot.json> replays device 0's history of a snapshot
// recorded by tide (tide::cuda::dump_snapshot) or torch (torch.cuda.memory._snapshot() saved as
// JSON) instead. Only "alloc" and "free_requested" entries are replayed; frees of an address
// not alive are skipped, and what is still alive at the end is freed.

#include <cstdint>
#include <string>
#include <vector>

namespace tide::bench::gpu {

struct ReplayEvent {
  bool alloc = false;
  uint64_t addr = 0;   // the trace's address: the key that pairs a free with its alloc
  int64_t bytes = 0;   // requested bytes (allocations only)
};

/// The events, built on first use (Note [Replayed trace]); raises when TIDE_BENCH_TRACE names
/// an unreadable file or one without device 0 history.
const std::vector<ReplayEvent>& replay_events();
/// Where they came from: "synthetic training trace" or the file's path.
const std::string& replay_source();

}  // namespace tide::bench::gpu
