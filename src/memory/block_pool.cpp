#include "memory/block_pool.h"

#include <cstdint>

#include "tide/error.h"

namespace tide::memory {

NodeFreeList::~NodeFreeList() {
  while (head_) {
    Node* n = head_;
    head_ = n->next;
    ::operator delete(static_cast<void*>(n));
  }
}

void* NodeFreeList::take(size_t bytes) {
  if (bytes_ == 0) bytes_ = bytes;
  if (bytes == bytes_ && head_) {
    Node* n = head_;
    head_ = n->next;
    return n;
  }
  return ::operator new(bytes < sizeof(Node) ? sizeof(Node) : bytes);
}

void NodeFreeList::give(void* p, size_t bytes) noexcept {
  if (bytes == bytes_ && bytes >= sizeof(Node)) {
    Node* n = static_cast<Node*>(p);
    n->next = head_;
    head_ = n;
    return;
  }
  ::operator delete(p);
}

BlockArena::~BlockArena() {
  for (Block* b : free_) delete b;
}

Block* BlockArena::make() {
  if (free_.empty()) return new Block();
  Block* b = free_.back();
  free_.pop_back();
  return b;
}

void BlockArena::retire(Block* b) noexcept {
  // Field by field: the stream_uses vector keeps its capacity for the block's next life.
  b->ptr = nullptr;
  b->size = b->requested_size = 0;
  b->stream = 0;
  b->pool = nullptr;
  b->segment = nullptr;
  b->prev = b->next = nullptr;
  b->allocated = false;
  b->event_count = 0;
  b->stream_uses.clear();
  b->gc_count_base = 0;
  b->op = b->scope = nullptr;
  b->pool_pos = {};
  if (free_.size() == free_.capacity()) {
    try {
      free_.reserve(free_.empty() ? 64 : free_.size() * 2);
    } catch (...) {
      delete b;
      return;
    }
  }
  free_.push_back(b);
}

Block* BlockPool::largest(uint64_t stream) const {
  Block key;  // sorts after every block of `stream`
  key.stream = stream;
  key.size = SIZE_MAX;
  key.ptr = reinterpret_cast<char*>(UINTPTR_MAX);
  auto it = blocks_.lower_bound(&key);
  if (it == blocks_.begin()) return nullptr;
  --it;
  return (*it)->stream == stream ? *it : nullptr;
}

void block_pool_corrupted(const char* what) {
  ::tide::detail::throw_internal_assert("block pool consistent", __FILE__, __LINE__, what);
}

Block* split_front(Block* b, size_t size, BlockArena& arena) {
  Block* front = arena.make();
  front->ptr = b->ptr;
  front->size = size;
  front->stream = b->stream;
  front->pool = b->pool;
  front->segment = b->segment;
  front->prev = b->prev;
  if (front->prev) {
    front->prev->next = front;
  } else {
    front->segment->head = front;
  }
  front->next = b;
  b->prev = front;
  b->ptr += size;
  b->size -= size;
  return front;
}

size_t try_merge(Block* dst, Block* src, BlockArena& arena) {
  if (!src || src->allocated || src->event_count > 0 || !src->stream_uses.empty()) return 0;
  src->pool->erase(src);
  if (dst->prev == src) {  // [src dst]
    dst->ptr = src->ptr;
    dst->prev = src->prev;
    if (dst->prev) {
      dst->prev->next = dst;
    } else {
      dst->segment->head = dst;
    }
  } else {  // [dst src]
    dst->next = src->next;
    if (dst->next) dst->next->prev = dst;
  }
  size_t gained = src->size;
  dst->size += gained;
  arena.retire(src);
  return gained;
}

}  // namespace tide::memory
