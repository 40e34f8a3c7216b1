// Note [Caching allocator]: torch's CUDACachingAllocator algorithm and accounting.
//
// Rounding. A request of n bytes becomes a block of round_size(n): n rounded up to a
//   multiple of 512 B (and at least 512 B). With roundup_power2_divisions:N, sizes above
//   512·N are instead rounded up to the next of N equal steps between two powers of two
//   (torch's roundup_power2_next_division). A request of 0 bytes gets a 512 B block.
// Pools. Blocks of <= 1 MiB come from the small pool, whose segments (raw allocations) are
//   2 MiB; larger blocks from the large pool: below 10 MiB in a 20 MiB segment, from
//   10 MiB in a segment of the size rounded up to 2 MiB. Each pool keeps its free blocks
//   in a set ordered by (stream, size, address) (block_pool.h).
// Best fit. malloc takes the smallest free block of the same stream and pool that is
//   large enough. With max_split_size set, a block >= max_split_size serves only a request
//   >= max_split_size, and only if it is less than 20 MiB larger than the request.
// Splitting. The rest of the chosen block goes back to the pool as a free block if it is
//   >= 512 B (small pool) or > 1 MiB (large pool, and only for requests below
//   max_split_size). free() merges the block with free neighbours of its segment, so a
//   segment whose blocks are all free is one block again.
// Stream reuse (Note [Stream uses], stream_uses.h). A block serves one stream. Freed
//   without other streams' uses, it is reusable by that stream at once (work on a stream
//   runs in order). Used on other streams (record_stream), it waits for markers recorded
//   on those streams at free time; malloc polls them, empty_cache waits for them.
// Retry. If no free block fits, a new segment is obtained from the device. If that fails:
//   with max_split_size, oversize free blocks of the stream are released and the device
//   asked again; then every pending marker is waited for (num_sync_all_streams), every
//   free whole segment released, and the device asked once more (num_alloc_retries);
//   then tide::OutOfMemoryError (num_ooms, Note [OOM message] in oom_message.cpp).
// Limits. set_memory_fraction(f) makes a segment that would take reserved memory past
//   f × capacity fail like a device OOM. With a fraction set and
//   garbage_collection_threshold t, before obtaining a segment while reserved > t ×
//   allowed, free whole large segments whose age (best-fit searches since they were
//   freed) is at least the average, repeatedly, until under the threshold.
// Accounting follows torch's statistics exactly (allocator_stats.h); one mutex per
//   device; the cached path (malloc+free of a size the cache holds) allocates nothing
//   (Note [No allocation on the cached path]) and builds no strings.

#include "memory/caching_allocator.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "memory/allocator_stats.h"
#include "memory/block_pool.h"
#include "memory/oom_message.h"
#include "memory/stream_uses.h"
#include "runtime/sanitizer.h"
#include "tide/error.h"
#include "tide/scope.h"

namespace tide::memory {
namespace {

constexpr size_t kMinBlockSize = 512;        // every block is a multiple of this
constexpr size_t kSmallSize = 1048576;       // largest request served by the small pool
constexpr size_t kSmallBuffer = 2097152;     // small pool segment size
constexpr size_t kLargeBuffer = 20971520;    // segment for 1 MiB < request < 10 MiB
constexpr size_t kMinLargeAlloc = 10485760;  // from here segments fit the request
constexpr size_t kRoundLarge = 2097152;      // ... rounded up to this

bool is_power_of_2(size_t v) { return v != 0 && (v & (v - 1)) == 0; }
int floor_log2(size_t v) { return 63 - __builtin_clzll(v); }

// torch's roundup_power2_next_division.
size_t roundup_power2_next_division(size_t size, size_t divisions) {
  if (is_power_of_2(size)) return size;
  size_t power2_floor = size_t{1} << floor_log2(size);
  size_t power2_division = power2_floor >> floor_log2(divisions);
  if (power2_division == 0) return power2_floor << 1;
  size_t round_size_floor = size & ~(power2_division - 1);
  return round_size_floor == size ? size : round_size_floor + power2_division;
}

size_t allocation_size(size_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);
}

int64_t fault_oom_at_from_env() {
  const char* env = std::getenv("TIDE_FAULT_OOM_AT");
  if (!env || !*env) return 0;
  char* end = nullptr;
  long long n = std::strtoll(env, &end, 10);
  TIDE_CHECK(end && *end == '\0' && n >= 0, "[TIDE_FAULT_OOM_AT] expected a non-negative integer (the n-th ",
             "caching-allocator allocation fails; 0 disables), found '", env, "'");
  return n;
}

}  // namespace

struct CachingAllocator::Impl {
  Impl(int device, std::unique_ptr<Upstream> up, const AllocatorConfig& cfg)
      : device(device), upstream(std::move(up)), config(cfg), small_pool(true), large_pool(false),
        start(std::chrono::steady_clock::now()) {
    stats.max_split_size = config.max_split_size == SIZE_MAX ? -1 : static_cast<int64_t>(config.max_split_size);
    oom_countdown = fault_oom_at_from_env();
    roundup_enabled = config.roundup_power2_divisions > 1;
    for (int d : config.roundup_power2_division_table) roundup_enabled |= d > 1;
  }

  int device;
  std::unique_ptr<Upstream> upstream;
  AllocatorConfig config;
  std::mutex mutex;
  BlockArena arena;  // before the pools: their blocks return here
  BlockPool small_pool;
  BlockPool large_pool;
  StreamUses stream_uses;
  AllocatorStats stats;
  std::map<uintptr_t, Segment*> segments;  // by base address
  size_t total_reserved = 0;
  bool set_fraction = false;
  double fraction = 1.0;
  size_t allowed_maximum = 0;
  int64_t oom_countdown = 0;
  bool roundup_enabled = false;
  // History (a ring of the last max_entries events).
  bool history = false;
  size_t max_entries = 0;
  std::vector<TraceEntry> ring;
  size_t ring_next = 0;
  std::chrono::steady_clock::time_point start;

  // ---- helpers (all called with `mutex` held) ----

  StatPool stat_pool(const BlockPool& pool) const { return pool.is_small() ? kSmallPool : kLargePool; }
  bool gc_enabled() const { return set_fraction && config.garbage_collection_threshold > 0.0; }

  size_t round_size(size_t size) const {
    if (size < kMinBlockSize) return kMinBlockSize;
    if (TIDE_UNLIKELY(roundup_enabled)) {
      size_t divisions = static_cast<size_t>(config.roundup_divisions_for(size));
      if (divisions > 1 && size > kMinBlockSize * divisions) {
        return roundup_power2_next_division(size, divisions);
      }
    }
    return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
  }

  void trace(TraceEntry::Action action, const void* addr, size_t size, uint64_t stream, const char* op,
             const char* scope) {
    if (!history) return;
    TraceEntry e{action,
                 reinterpret_cast<uint64_t>(addr),
                 static_cast<int64_t>(size),
                 stream,
                 op,
                 scope,
                 std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
                     .count()};
    if (ring.size() < max_entries) {
      ring.push_back(e);
    } else {
      ring[ring_next] = e;
      ring_next = (ring_next + 1) % max_entries;
    }
  }

  Block* get_free_block(BlockPool& pool, uint64_t stream, size_t size) {
    if (TIDE_UNLIKELY(gc_enabled())) ++pool.search_count;
    Block* b = pool.best_fit(stream, size);
    if (!b) return nullptr;
    // Do not return an oversize block for a small request ...
    if (size < config.max_split_size && b->size >= config.max_split_size) return nullptr;
    // ... and round an oversize request up by less than kLargeBuffer only.
    if (size >= config.max_split_size && b->size >= size + kLargeBuffer) return nullptr;
    pool.erase(b);
    return b;
  }

  bool should_split(const Block* b, size_t size) const {
    size_t remaining = b->size - size;
    if (b->pool->is_small()) return remaining >= kMinBlockSize;
    return size < config.max_split_size && remaining > kSmallSize;
  }

  // A new segment of `alloc_size` bytes as one free block (in no pool), or nullptr.
  Block* alloc_block(BlockPool& pool, uint64_t stream, size_t alloc_size, bool is_retry, bool injected,
                     const char* op, const char* scope) {
    if (is_retry) ++stats.num_alloc_retries;
    if (injected) return nullptr;
    if (set_fraction && total_reserved + alloc_size > allowed_maximum) return nullptr;
    void* p = upstream->raw_malloc(alloc_size);
    if (!p) return nullptr;
    ++stats.num_device_alloc;
    total_reserved += alloc_size;
    auto* seg = new Segment();
    seg->base = static_cast<char*>(p);
    seg->size = alloc_size;
    seg->stream = stream;
    seg->pool = &pool;
    Block* b = arena.make();
    b->ptr = seg->base;
    b->size = alloc_size;
    b->stream = stream;
    b->pool = &pool;
    b->segment = seg;
    seg->head = b;
    segments.emplace(reinterpret_cast<uintptr_t>(p), seg);
    StatPool sp = stat_pool(pool);
    stat_increase(stats.segment, sp, 1);
    stat_increase(stats.reserved_bytes, sp, static_cast<int64_t>(alloc_size));
    if (alloc_size >= config.max_split_size) stats.oversize_segments.increase(1);
    trace(TraceEntry::Action::SegmentAlloc, p, alloc_size, stream, op, scope);
    return b;
  }

  // Returns a free whole segment (in its pool) to the device.
  void release_block(Block* b) {
    TIDE_INTERNAL_ASSERT(!b->is_split() && !b->allocated, "only free whole segments go back to the device");
    BlockPool& pool = *b->pool;
    pool.erase(b);
    ++stats.num_device_free;
    trace(TraceEntry::Action::SegmentFree, b->ptr, b->size, b->stream, nullptr, Scope::current());
    upstream->raw_free(b->ptr, b->size);
    total_reserved -= b->size;
    StatPool sp = stat_pool(pool);
    stat_decrease(stats.segment, sp, 1);
    stat_decrease(stats.reserved_bytes, sp, static_cast<int64_t>(b->size));
    if (b->size >= config.max_split_size) stats.oversize_segments.decrease(1);
    Segment* seg = b->segment;
    segments.erase(reinterpret_cast<uintptr_t>(seg->base));
    delete seg;
    arena.retire(b);
  }

  // Releases every free whole segment of `pool`.
  void release_blocks(BlockPool& pool) {
    std::vector<Block*> whole;
    for (Block* b : pool.blocks()) {
      if (!b->is_split()) whole.push_back(b);
    }
    for (Block* b : whole) release_block(b);
  }

  // With max_split_size: release one oversize free block of the stream that fits, or
  // several, largest first, until their sizes add up to the request (torch's
  // release_available_cached_blocks).
  bool release_available_cached_blocks(BlockPool& pool, uint64_t stream, size_t size) {
    if (config.max_split_size == SIZE_MAX) return false;
    size_t key = std::max(size, config.max_split_size);
    if (Block* b = pool.best_fit(stream, key); b && !b->is_split()) {
      release_block(b);
      return true;
    }
    std::vector<Block*> oversize;  // this stream's, largest first
    for (auto it = pool.blocks().rbegin(); it != pool.blocks().rend(); ++it) {
      Block* b = *it;
      if (b->stream > stream) continue;
      if (b->stream < stream || b->size < config.max_split_size) break;
      if (!b->is_split()) oversize.push_back(b);
    }
    size_t released = 0;
    for (Block* b : oversize) {
      if (released >= key) break;
      released += b->size;
      release_block(b);
    }
    return released >= key;
  }

  // Note [Waiting on streams without the lock]: empty_cache and the OOM retry must wait for
  // every pending stream-use marker. They must not wait holding `mutex`: on simulated GPUs a
  // stream's worker releases a finished kernel's operands, which frees blocks and so takes
  // `mutex`, before the marker behind that kernel can complete — waiting with the lock held
  // deadlocks. So the markers are copied, the caller's lock is released for the wait, and
  // once re-locked the now-complete markers are processed without blocking. Markers added by
  // other threads meanwhile simply stay pending.
  std::unique_lock<std::mutex>* caller_lock = nullptr;

  void synchronize_and_free_events() {
    ++stats.num_sync_all_streams;
    if (stream_uses.empty()) return;
    if (!caller_lock) {
      stream_uses.synchronize_all(*upstream, [this](Block* b) { free_block(b); });
      return;
    }
    std::vector<StreamMarker> pending = stream_uses.markers();
    std::unique_lock<std::mutex>* lock = caller_lock;  // other callers may set it meanwhile
    lock->unlock();
    for (const StreamMarker& m : pending) upstream->synchronize(m);
    lock->lock();
    caller_lock = lock;
    stream_uses.process(*upstream, [this](Block* b) { free_block(b); });
  }

  void release_cached_blocks() {
    synchronize_and_free_events();
    release_blocks(large_pool);
    release_blocks(small_pool);
  }

  // torch's garbage_collect_cached_blocks (large pool only, as torch).
  void garbage_collect() {
    size_t threshold =
        static_cast<size_t>(config.garbage_collection_threshold * static_cast<double>(allowed_maximum));
    if (total_reserved <= threshold) return;
    size_t target = total_reserved - threshold;
    size_t reclaimed = 0;
    double total_age = 0;
    int freeable = 0;
    for (Block* b : large_pool.blocks()) {
      if (!b->is_split()) {
        total_age += static_cast<double>(large_pool.age(b));
        ++freeable;
      }
    }
    if (freeable == 0) return;
    bool freed = true;
    while (reclaimed < target && freed && freeable > 0) {
      double age_threshold = total_age / freeable;
      freed = false;
      std::vector<Block*> old;
      for (Block* b : large_pool.blocks()) {
        if (!b->is_split() && static_cast<double>(large_pool.age(b)) >= age_threshold) old.push_back(b);
      }
      for (Block* b : old) {
        freed = true;
        reclaimed += b->size;
        total_age -= static_cast<double>(large_pool.age(b));
        --freeable;
        release_block(b);
      }
    }
  }

  Block* alloc_found_block(Block* block, size_t size, size_t orig_size, const char* op, const char* scope) {
    BlockPool& pool = *block->pool;
    StatPool sp = stat_pool(pool);
    const bool already_split = block->is_split();
    if (should_split(block, size)) {
      Block* remaining = block;
      block = split_front(remaining, size, arena);
      pool.insert(remaining);
      if (already_split) {
        // An inactive split block shrinks by `size` bytes.
        stat_decrease(stats.inactive_split_bytes, sp, static_cast<int64_t>(size));
      } else {
        // A whole block becomes split: its remainder is a new inactive split block.
        stat_increase(stats.inactive_split_bytes, sp, static_cast<int64_t>(remaining->size));
        stat_increase(stats.inactive_split, sp, 1);
      }
    } else if (already_split) {
      stat_decrease(stats.inactive_split_bytes, sp, static_cast<int64_t>(block->size));
      stat_decrease(stats.inactive_split, sp, 1);
    }
    block->allocated = true;
    block->requested_size = orig_size;
    block->op = op;
    block->scope = scope;
    const auto bytes = static_cast<int64_t>(block->size);
    stat_increase(stats.allocation, sp, 1);
    stat_increase(stats.allocated_bytes, sp, bytes);
    stat_increase(stats.active, sp, 1);
    stat_increase(stats.active_bytes, sp, bytes);
    stat_increase(stats.requested_bytes, sp, static_cast<int64_t>(orig_size));
    if (block->size >= config.max_split_size) stats.oversize_allocations.increase(1);
    // torch's traces carry the size the caller asked for (orig_size), not the rounded one.
    trace(TraceEntry::Action::Alloc, block->ptr, orig_size, block->stream, op, scope);
    return block;
  }

  // The block (not allocated, no pending markers) goes back to its pool, merged with free
  // neighbours.
  void free_block(Block* block) {
    trace(TraceEntry::Action::FreeCompleted, block->ptr, block->requested_size, block->stream, block->op,
          block->scope);
    const auto original_size = static_cast<int64_t>(block->size);
    const auto requested = static_cast<int64_t>(block->requested_size);
    BlockPool& pool = *block->pool;
    StatPool sp = stat_pool(pool);
    int64_t net_blocks = 0;
    int64_t net_bytes = 0;
    Block* candidates[2] = {block->prev, block->next};
    for (Block* c : candidates) {
      size_t gained = try_merge(block, c, arena);
      if (gained > 0) {
        net_blocks -= 1;
        net_bytes -= static_cast<int64_t>(gained);
      }
    }
    block->requested_size = 0;
    block->op = nullptr;
    block->scope = nullptr;
    pool.insert(block);
    if (block->is_split()) {
      net_blocks += 1;
      net_bytes += static_cast<int64_t>(block->size);
    }
    if (net_blocks > 0) stat_increase(stats.inactive_split, sp, net_blocks);
    if (net_blocks < 0) stat_decrease(stats.inactive_split, sp, -net_blocks);
    if (net_bytes > 0) stat_increase(stats.inactive_split_bytes, sp, net_bytes);
    if (net_bytes < 0) stat_decrease(stats.inactive_split_bytes, sp, -net_bytes);
    stat_decrease(stats.active, sp, 1);
    stat_decrease(stats.active_bytes, sp, original_size);
    stat_decrease(stats.requested_bytes, sp, requested);
  }

  [[noreturn]] void raise_oom(size_t orig_size, size_t alloc_size, uint64_t stream, bool injected, const char* op,
                              const char* scope) {
    ++stats.num_ooms;
    trace(TraceEntry::Action::Oom, nullptr, orig_size, stream, op, scope);
    OomInfo info;
    info.device = device;
    info.requested = static_cast<int64_t>(orig_size);
    info.alloc_size = static_cast<int64_t>(alloc_size);
    info.capacity = upstream->capacity();
    info.device_free = std::max<int64_t>(0, info.capacity - upstream->raw_in_use());
    info.allocated = stats.allocated_bytes[kAllPools].current;
    info.reserved = stats.reserved_bytes[kAllPools].current;
    for (const BlockPool* pool : {&small_pool, &large_pool}) {
      for (const Block* b : pool->blocks()) {
        ++info.free_blocks;
        info.largest_free_block = std::max(info.largest_free_block, static_cast<int64_t>(b->size));
      }
    }
    if (set_fraction) {
      info.allowed = static_cast<int64_t>(allowed_maximum);
      info.fraction = fraction;
    }
    info.max_split_size_set = config.max_split_size != SIZE_MAX;
    info.injected = injected;
    throw OutOfMemoryError(oom_message(info));
  }

  Block* malloc(size_t orig_size, uint64_t stream, const char* op, const char* scope) {
    if (TIDE_UNLIKELY(!stream_uses.empty())) {
      stream_uses.process(*upstream, [this](Block* b) { free_block(b); });
    }
    const size_t size = round_size(orig_size);
    BlockPool& pool = size <= kSmallSize ? small_pool : large_pool;
    const bool injected = TIDE_UNLIKELY(oom_countdown > 0) && --oom_countdown == 0;
    Block* block = injected ? nullptr : get_free_block(pool, stream, size);
    if (TIDE_UNLIKELY(!block)) {
      const size_t alloc_size = allocation_size(size);
      if (gc_enabled()) garbage_collect();
      block = alloc_block(pool, stream, alloc_size, false, injected, op, scope);
      if (!block && release_available_cached_blocks(pool, stream, size)) {
        block = alloc_block(pool, stream, alloc_size, false, injected, op, scope);
      }
      if (!block) {
        release_cached_blocks();
        block = alloc_block(pool, stream, alloc_size, true, injected, op, scope);
      }
      if (!block) raise_oom(orig_size, alloc_size, stream, injected, op, scope);
    }
    return alloc_found_block(block, size, orig_size, op, scope);
  }

  void free(Block* block) {
    TIDE_INTERNAL_ASSERT(block && block->allocated, "[CachingAllocator::free] the block is not allocated");
    block->allocated = false;
    StatPool sp = stat_pool(*block->pool);
    stat_decrease(stats.allocation, sp, 1);
    stat_decrease(stats.allocated_bytes, sp, static_cast<int64_t>(block->size));
    trace(TraceEntry::Action::FreeRequested, block->ptr, block->requested_size, block->stream, block->op,
          block->scope);
    if (block->size >= config.max_split_size) stats.oversize_allocations.decrease(1);
    // Before the block can be handed out again: its next user is ordered after the old ones
    // by this allocator's stream rules, not by anything the sanitizer sees.
    if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) {
      runtime::sanitizer_memory_freed(block->ptr, block->size);
    }
    if (TIDE_UNLIKELY(!block->stream_uses.empty())) {
      stream_uses.add(block, *upstream);
    } else {
      free_block(block);
    }
  }

  void check_invariants() {
    size_t reserved = 0;
    int64_t counts[3][4] = {};  // per StatPool: allocation, active, inactive_split, segments
    int64_t bytes[3][5] = {};   // allocated, active, inactive_split, requested, reserved
    size_t in_pools = 0;
    for (auto& [base, seg] : segments) {
      TIDE_INTERNAL_ASSERT(reinterpret_cast<uintptr_t>(seg->base) == base);
      TIDE_INTERNAL_ASSERT(seg->head && seg->head->prev == nullptr && seg->head->ptr == seg->base);
      reserved += seg->size;
      const int sp = stat_pool(*seg->pool);
      counts[sp][3] += 1;
      bytes[sp][4] += static_cast<int64_t>(seg->size);
      char* expect = seg->base;
      const bool split = seg->head->next != nullptr;
      for (Block* b = seg->head; b; b = b->next) {
        TIDE_INTERNAL_ASSERT(b->ptr == expect, "blocks must tile their segment");
        TIDE_INTERNAL_ASSERT(b->segment == seg && b->pool == seg->pool && b->stream == seg->stream);
        TIDE_INTERNAL_ASSERT(b->size > 0 && b->size % kMinBlockSize == 0);
        TIDE_INTERNAL_ASSERT(!b->next || b->next->prev == b);
        expect += b->size;
        const bool in_pool = b->pool->blocks().count(b) == 1;
        if (b->allocated) {
          TIDE_INTERNAL_ASSERT(!in_pool && b->event_count == 0);
          counts[sp][0] += 1;
          bytes[sp][0] += static_cast<int64_t>(b->size);
        }
        if (b->allocated || b->event_count > 0) {
          TIDE_INTERNAL_ASSERT(!in_pool);
          counts[sp][1] += 1;
          bytes[sp][1] += static_cast<int64_t>(b->size);
          bytes[sp][3] += static_cast<int64_t>(b->requested_size);
        } else {
          TIDE_INTERNAL_ASSERT(in_pool, "a free block without pending markers must be in its pool");
          // Free neighbours are always merged.
          TIDE_INTERNAL_ASSERT(!b->next || b->next->allocated || b->next->event_count > 0);
          ++in_pools;
          if (split) {
            counts[sp][2] += 1;
            bytes[sp][2] += static_cast<int64_t>(b->size);
          }
        }
      }
      TIDE_INTERNAL_ASSERT(expect == seg->base + seg->size, "blocks must cover their segment");
    }
    TIDE_INTERNAL_ASSERT(in_pools == small_pool.count() + large_pool.count());
    TIDE_INTERNAL_ASSERT(reserved == total_reserved);
    for (int sp = 0; sp < 3; ++sp) {
      auto sum = [&](auto& arr, int k) {
        return sp == kAllPools ? arr[kSmallPool][k] + arr[kLargePool][k] : arr[sp][k];
      };
      TIDE_INTERNAL_ASSERT(stats.allocation[sp].current == sum(counts, 0));
      TIDE_INTERNAL_ASSERT(stats.active[sp].current == sum(counts, 1));
      TIDE_INTERNAL_ASSERT(stats.inactive_split[sp].current == sum(counts, 2));
      TIDE_INTERNAL_ASSERT(stats.segment[sp].current == sum(counts, 3));
      TIDE_INTERNAL_ASSERT(stats.allocated_bytes[sp].current == sum(bytes, 0));
      TIDE_INTERNAL_ASSERT(stats.active_bytes[sp].current == sum(bytes, 1));
      TIDE_INTERNAL_ASSERT(stats.inactive_split_bytes[sp].current == sum(bytes, 2));
      TIDE_INTERNAL_ASSERT(stats.requested_bytes[sp].current == sum(bytes, 3));
      TIDE_INTERNAL_ASSERT(stats.reserved_bytes[sp].current == sum(bytes, 4));
    }
  }
};

CachingAllocator::CachingAllocator(int device, std::unique_ptr<Upstream> upstream, AllocatorConfig config)
    : device_(device), config_(std::move(config)) {
  TIDE_CHECK(upstream != nullptr, "[CachingAllocator] expected a device upstream, found nullptr");
  impl_ = std::make_unique<Impl>(device, std::move(upstream), config_);
}

// Returns every segment to the device. Blocks still allocated are released too: the
// allocator must outlive its blocks. Pending markers are dropped, not waited for.
CachingAllocator::~CachingAllocator() {
  Impl& im = *impl_;
  im.stream_uses.clear();
  for (auto& [base, seg] : im.segments) {
    im.upstream->raw_free(seg->base, seg->size);
    Block* b = seg->head;
    while (b) {
      Block* next = b->next;
      delete b;
      b = next;
    }
    delete seg;
  }
  im.segments.clear();
}

Block* CachingAllocator::malloc(size_t nbytes, uint64_t stream, const char* op) {
  const char* scope = Scope::current();
  std::unique_lock<std::mutex> lock(impl_->mutex);
  impl_->caller_lock = &lock;
  struct Reset {
    Impl* impl;
    ~Reset() { impl->caller_lock = nullptr; }
  } reset{impl_.get()};
  return impl_->malloc(nbytes, stream, op, scope);
}

void CachingAllocator::free(Block* block) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->free(block);
}

void CachingAllocator::record_stream(Block* block, uint64_t stream) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  TIDE_INTERNAL_ASSERT(block && block->allocated, "[CachingAllocator::record_stream] the block is not allocated");
  if (stream == block->stream) return;  // uses on the allocation stream are ordered already
  auto& uses = block->stream_uses;
  if (std::find(uses.begin(), uses.end(), stream) == uses.end()) uses.push_back(stream);
}

void* CachingAllocator::ptr(const Block* block) { return block->ptr; }
size_t CachingAllocator::size(const Block* block) { return block->size; }

void CachingAllocator::empty_cache() {
  std::unique_lock<std::mutex> lock(impl_->mutex);
  impl_->caller_lock = &lock;
  struct Reset {
    Impl* impl;
    ~Reset() { impl->caller_lock = nullptr; }
  } reset{impl_.get()};
  impl_->release_cached_blocks();
}

StatMap CachingAllocator::stats() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats.to_map();
}

void CachingAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->stats.reset_peak();
}

void CachingAllocator::reset_accumulated_stats() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->stats.reset_accumulated();
}

void CachingAllocator::set_memory_fraction(double fraction) {
  TIDE_CHECK(fraction >= 0.0 && fraction <= 1.0, "[set_per_process_memory_fraction] Invalid fraction value: ",
             fraction, ". Allowed range: 0~1");
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl& im = *impl_;
  im.fraction = fraction;
  im.allowed_maximum = static_cast<size_t>(fraction * static_cast<double>(im.upstream->capacity()));
  im.set_fraction = true;
}

void CachingAllocator::inject_oom_at(int64_t n) {
  TIDE_CHECK(n >= 0, "[inject_oom_at] expected n >= 0 (1 = the next allocation fails, 0 disarms), found ", n);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->oom_countdown = n;
}

// Note [History]: enabling starts a fresh ring of max_entries (at least 1) events;
// disabling stops recording and keeps what was recorded, so a snapshot taken afterwards
// still shows it.
void CachingAllocator::record_history(bool enabled, size_t max_entries) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl& im = *impl_;
  if (enabled) {
    im.max_entries = std::max<size_t>(1, max_entries);
    im.ring.clear();
    im.ring.reserve(std::min<size_t>(im.max_entries, 1 << 16));
    im.ring_next = 0;
  }
  im.history = enabled;
}

std::vector<SegmentInfo> CachingAllocator::segments() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<SegmentInfo> out;
  out.reserve(impl_->segments.size());
  for (auto& [base, seg] : impl_->segments) {
    SegmentInfo info{};
    info.address = base;
    info.total_size = static_cast<int64_t>(seg->size);
    info.stream = seg->stream;
    info.segment_type = seg->pool->is_small() ? "small" : "large";
    for (Block* b = seg->head; b; b = b->next) {
      BlockInfo bi{};
      bi.addr = reinterpret_cast<uint64_t>(b->ptr);
      bi.size = static_cast<int64_t>(b->size);
      if (b->allocated) {
        bi.state = "active_allocated";
      } else if (b->event_count > 0) {
        bi.state = "active_pending_free";
      } else {
        bi.state = "inactive";
      }
      const bool active = b->allocated || b->event_count > 0;
      bi.requested_size = active ? static_cast<int64_t>(b->requested_size) : 0;
      bi.op = active ? b->op : nullptr;
      bi.scope = active ? b->scope : nullptr;
      if (b->allocated) info.allocated_size += bi.size;
      if (active) {
        info.active_size += bi.size;
        info.requested_size += bi.requested_size;
      }
      info.blocks.push_back(std::move(bi));
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<TraceEntry> CachingAllocator::trace() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl& im = *impl_;
  std::vector<TraceEntry> out;
  out.reserve(im.ring.size());
  if (im.ring.size() < im.max_entries) {
    out = im.ring;
  } else {
    out.insert(out.end(), im.ring.begin() + static_cast<std::ptrdiff_t>(im.ring_next), im.ring.end());
    out.insert(out.end(), im.ring.begin(), im.ring.begin() + static_cast<std::ptrdiff_t>(im.ring_next));
  }
  return out;
}

std::pair<int64_t, int64_t> CachingAllocator::mem_get_info() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const int64_t total = impl_->upstream->capacity();
  return {std::max<int64_t>(0, total - impl_->upstream->raw_in_use()), total};
}

void CachingAllocator::check_invariants() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->check_invariants();
}

}  // namespace tide::memory
