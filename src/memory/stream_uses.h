#pragma once
// StreamUses: blocks freed while other streams may still use them (Note [Stream uses]).

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "memory/upstream.h"

namespace tide::memory {

struct Block;

/// Note [Stream uses]: a block is handed out for one stream, and work on that stream is
/// ordered, so freeing it and reusing it on the same stream is safe without waiting. When
/// other streams used it too (record_stream), the free records a marker on each of them;
/// the block returns to its pool only once all of its markers have completed. Markers are
/// kept per stream in FIFO order, so one slow stream does not hold back the others:
/// `process` stops at a stream's first unfinished marker (its later ones cannot have
/// finished before it). `process` runs at every malloc that finds pending markers;
/// `synchronize_all` waits for all of them (empty_cache and the OOM retry).
class StreamUses {
 public:
  /// Records a marker on every stream in `block->stream_uses` (clearing that list) and
  /// counts them in `block->event_count`.
  void add(Block* block, Upstream& upstream);
  bool empty() const { return pending_ == 0; }
  size_t pending() const { return pending_; }
  /// Calls `ready(block)` for each block whose last marker has completed.
  template <class Ready>
  void process(Upstream& upstream, Ready ready);
  /// Waits for every marker, then as `process`.
  template <class Ready>
  void synchronize_all(Upstream& upstream, Ready ready);
  /// Copies of every pending marker, so a caller can wait for them without the allocator's
  /// mutex (Note [Waiting on streams without the lock]).
  std::vector<StreamMarker> markers() const {
    std::vector<StreamMarker> all;
    all.reserve(pending_);
    for (const Queue& q : queues_) {
      for (const auto& entry : q.markers) all.push_back(entry.first);
    }
    return all;
  }
  /// Drops every marker without waiting (allocator teardown).
  void clear() {
    queues_.clear();
    pending_ = 0;
  }

 private:
  struct Queue {
    uint64_t stream;
    std::deque<std::pair<StreamMarker, Block*>> markers;
  };
  std::vector<Queue> queues_;  // few streams: a linear search beats a map
  size_t pending_ = 0;
};

}  // namespace tide::memory

#include "memory/block_pool.h"

namespace tide::memory {

template <class Ready>
void StreamUses::process(Upstream& upstream, Ready ready) {
  for (Queue& q : queues_) {
    while (!q.markers.empty()) {
      auto& [marker, block] = q.markers.front();
      if (!upstream.query(marker)) break;
      Block* b = block;
      q.markers.pop_front();
      --pending_;
      if (--b->event_count == 0) ready(b);
    }
  }
}

template <class Ready>
void StreamUses::synchronize_all(Upstream& upstream, Ready ready) {
  for (Queue& q : queues_) {
    while (!q.markers.empty()) {
      auto& [marker, block] = q.markers.front();
      upstream.synchronize(marker);
      Block* b = block;
      q.markers.pop_front();
      --pending_;
      if (--b->event_count == 0) ready(b);
    }
  }
}

}  // namespace tide::memory
