#pragma once
// CachingAllocator: one device's caching allocator (torch's algorithm and accounting).
// The algorithm's one-screen description opens caching_allocator.cpp (STYLE.md habit 8).
// This header is the contract between the allocator, the tensor layer (device memory for
// tensors), the tide::cuda memory API and the snapshot/replay tools.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "memory/allocator_config.h"
#include "memory/upstream.h"

namespace tide::memory {

struct Block;  // block_pool.h

/// One entry of the allocation history (torch's device_traces entries, plus op and scope).
struct TraceEntry {
  enum class Action { Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, Oom };
  Action action;
  uint64_t addr;    // block or segment address (0 for oom)
  int64_t size;     // bytes (for oom: the request)
  uint64_t stream;  // stream id
  const char* op;     // the op that caused it ("empty", "add", ...), or nullptr
  const char* scope;  // innermost tide::Scope at the time, or nullptr
  int64_t time_us;  // microseconds since the allocator was created
};

/// A snapshot's view of one block and one segment (torch's _snapshot() structure).
struct BlockInfo {
  uint64_t addr;
  int64_t size;
  int64_t requested_size;
  std::string state;  // "active_allocated", "active_pending_free", "inactive"
  const char* op;
  const char* scope;
};
struct SegmentInfo {
  uint64_t address;
  int64_t total_size;
  int64_t allocated_size;
  int64_t active_size;
  int64_t requested_size;
  uint64_t stream;
  std::string segment_type;  // "small" or "large"
  std::vector<BlockInfo> blocks;
};

/// Allocation figures with torch's key names: "allocated_bytes.all.current", ... (see
/// allocator_stats.h for the full list).
using StatMap = std::map<std::string, int64_t>;

class CachingAllocator {
 public:
  CachingAllocator(int device, std::unique_ptr<Upstream> upstream, AllocatorConfig config);
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  /// A block of at least `nbytes` usable on stream `stream`. `op` (a string literal or
  /// nullptr) is recorded for snapshots. Raises tide::OutOfMemoryError (Note [OOM message]).
  Block* malloc(size_t nbytes, uint64_t stream, const char* op = nullptr);
  /// Returns the block: at once to its stream's pool if only its allocation stream used it,
  /// otherwise once markers recorded on every other stream that used it have completed.
  void free(Block* block);
  /// Notes that `stream` uses `block` (Note [Stream uses]); a no-op for the allocation stream.
  void record_stream(Block* block, uint64_t stream);
  static void* ptr(const Block* block);
  static size_t size(const Block* block);

  /// Releases every cached segment no tensor uses (after pending frees complete).
  void empty_cache();
  StatMap stats();
  void reset_peak_stats();
  /// Running totals (".allocated", ".freed", retries, OOMs, device calls) back to 0
  /// (torch's reset_accumulated_memory_stats).
  void reset_accumulated_stats();
  /// Limits what this device's allocator may reserve to fraction × capacity (torch's
  /// set_per_process_memory_fraction); also enables garbage_collection_threshold.
  void set_memory_fraction(double fraction);
  /// The n-th malloc from now (1 = the next) fails exactly as a real OOM would; 0 disarms.
  void inject_oom_at(int64_t n);

  void record_history(bool enabled, size_t max_entries);
  std::vector<SegmentInfo> segments();
  std::vector<TraceEntry> trace();
  int device() const { return device_; }
  const AllocatorConfig& config() const { return config_; }
  /// (free, total) of the device as cudaMemGetInfo reports it.
  std::pair<int64_t, int64_t> mem_get_info();
  /// Checks every structural and accounting invariant (segments tile exactly into blocks,
  /// free blocks are in their pool, stats match the blocks); raises InternalError if one
  /// fails. For tests and debugging: it walks every block.
  void check_invariants();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int device_;
  AllocatorConfig config_;
};

}  // namespace tide::memory
