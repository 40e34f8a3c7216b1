#pragma once
// BlockPool: the free blocks of one pool (small or large), best fit by (stream, size,
// address); Block and Segment, and the split/merge steps of torch's allocator.

#include <cstddef>
#include <cstdint>
#include <new>
#include <set>
#include <vector>

#include "tide/macros.h"

namespace tide::memory {

[[noreturn]] void block_pool_corrupted(const char* what);

class BlockPool;
struct Block;

/// Orders free blocks as torch does: by stream, then size, then address, so lower_bound of
/// (stream, size, 0) is the best fit on that stream.
struct BlockLess {
  bool operator()(const Block* a, const Block* b) const;
};

/// Note [No allocation on the cached path]: std::set allocates a node per insert. The
/// pool's set gets its nodes from this free list, so once warm a malloc/free pair of a
/// cached size touches no heap. Single-threaded: the allocator's mutex guards it.
class NodeFreeList {
 public:
  NodeFreeList() = default;
  NodeFreeList(const NodeFreeList&) = delete;
  NodeFreeList& operator=(const NodeFreeList&) = delete;
  ~NodeFreeList();
  void* take(size_t bytes);
  void give(void* p, size_t bytes) noexcept;

 private:
  struct Node { Node* next; };
  Node* head_ = nullptr;
  size_t bytes_ = 0;  // the node size (every node of one set has the same size)
};

template <class T>
struct NodeAllocator {
  using value_type = T;
  NodeFreeList* list;
  explicit NodeAllocator(NodeFreeList* l) noexcept : list(l) {}
  template <class U>
  NodeAllocator(const NodeAllocator<U>& o) noexcept : list(o.list) {}  // NOLINT: rebind
  T* allocate(size_t n) { return static_cast<T*>(list->take(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { list->give(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const NodeAllocator<U>& o) const noexcept { return list == o.list; }
};

using BlockSet = std::set<Block*, BlockLess, NodeAllocator<Block*>>;

/// One raw allocation from the device, carved into address-ordered blocks.
struct Segment {
  char* base = nullptr;
  size_t size = 0;
  uint64_t stream = 0;  // the stream of the malloc that created it
  BlockPool* pool = nullptr;
  Block* head = nullptr;  // the block at `base` (changes as blocks split and merge)
};

/// A piece of a segment: allocated to a caller, waiting on stream markers, or free in its
/// pool. Neighbours in the same segment are linked by prev/next (address order).
struct Block {
  char* ptr = nullptr;
  size_t size = 0;
  size_t requested_size = 0;  // what the caller asked for (unrounded), while allocated
  uint64_t stream = 0;        // the allocation stream; only this stream reuses the block
  BlockPool* pool = nullptr;
  Segment* segment = nullptr;
  Block* prev = nullptr;
  Block* next = nullptr;
  bool allocated = false;
  int event_count = 0;                // markers still pending (Note [Stream uses])
  std::vector<uint64_t> stream_uses;  // other streams that used it since allocation
  uint64_t gc_count_base = 0;         // pool's search count when the block became free
  const char* op = nullptr;           // the op and scope that allocated it (snapshots)
  const char* scope = nullptr;
  BlockSet::iterator pool_pos{};  // where it sits in its pool's set while free

  bool is_split() const { return prev != nullptr || next != nullptr; }
};

inline bool BlockLess::operator()(const Block* a, const Block* b) const {
  if (a->stream != b->stream) return a->stream < b->stream;
  if (a->size != b->size) return a->size < b->size;
  return a->ptr < b->ptr;
}

/// Recycles Block objects (splits create blocks, merges retire them) without the heap.
class BlockArena {
 public:
  BlockArena() = default;
  BlockArena(const BlockArena&) = delete;
  BlockArena& operator=(const BlockArena&) = delete;
  ~BlockArena();
  Block* make();
  void retire(Block* b) noexcept;

 private:
  std::vector<Block*> free_;
};

class BlockPool {
 public:
  using Set = BlockSet;

  explicit BlockPool(bool is_small) : is_small_(is_small), blocks_(BlockLess{}, NodeAllocator<Block*>(&nodes_)) {}
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  bool is_small() const { return is_small_; }
  /// The smallest free block of `stream` with size >= `size`, or nullptr.
  Block* best_fit(uint64_t stream, size_t size) const {
    Block key;
    key.stream = stream;
    key.size = size;
    auto it = blocks_.lower_bound(&key);
    if (it == blocks_.end() || (*it)->stream != stream) return nullptr;
    return *it;
  }
  /// The largest free block of `stream`, or nullptr.
  Block* largest(uint64_t stream) const;
  void insert(Block* b) {
    b->gc_count_base = search_count;
    auto [pos, inserted] = blocks_.insert(b);
    if (TIDE_UNLIKELY(!inserted)) block_pool_corrupted("block already in its pool");
    b->pool_pos = pos;
  }
  void erase(Block* b) { blocks_.erase(b->pool_pos); }
  const Set& blocks() const { return blocks_; }
  size_t count() const { return blocks_.size(); }

  /// Counts best-fit searches while garbage collection is on; a free block's age is the
  /// number of searches since it was inserted (torch's gc_count).
  uint64_t search_count = 0;
  uint64_t age(const Block* b) const { return search_count - b->gc_count_base; }

 private:
  bool is_small_;
  NodeFreeList nodes_;  // before blocks_: it must outlive the set
  Set blocks_;
};

/// Splits `size` bytes off the front of free block `b`: returns the new front block (its
/// own Block object); `b` keeps the remainder. Neither is in a pool afterwards.
Block* split_front(Block* b, size_t size, BlockArena& arena);

/// Merges free neighbour `src` into `dst` when `src` is free with no pending markers;
/// returns the bytes gained (0 when not merged). `src` leaves its pool and is retired.
size_t try_merge(Block* dst, Block* src, BlockArena& arena);

}  // namespace tide::memory
