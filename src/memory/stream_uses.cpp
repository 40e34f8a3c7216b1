#include "memory/stream_uses.h"

#include "memory/block_pool.h"

namespace tide::memory {

void StreamUses::add(Block* block, Upstream& upstream) {
  for (uint64_t stream : block->stream_uses) {
    Queue* queue = nullptr;
    for (Queue& q : queues_) {
      if (q.stream == stream) queue = &q;
    }
    if (!queue) {
      queues_.push_back(Queue{stream, {}});
      queue = &queues_.back();
    }
    queue->markers.emplace_back(upstream.record(stream), block);
    ++block->event_count;
    ++pending_;
  }
  block->stream_uses.clear();
}

}  // namespace tide::memory
