#pragma once
// The pinned (page-locked) host memory allocator: torch's CachingHostAllocator.
//
// Note [Pinned host memory]: pinned buffers are what make host<->device copies asynchronous
// (Note [Copies between devices]), and pinning is expensive on real GPUs (cudaHostAlloc takes
// a driver-wide lock), so freed buffers are cached:
// - every request is rounded up to a power of two, and one free list per power of two serves
//   later requests of that rounded size; each block is its own host allocation (a segment);
// - a block carries the set of cuda streams that used it (an asynchronous copy that reads or
//   writes it records its stream: record_pinned_use). When the last tensor lets go of the
//   block, an event is recorded on each of those streams, and the block returns to its free
//   list only once all of them completed, so a later allocation never hands out memory an
//   in-flight copy still reads or writes. A block no stream used returns at once;
// - when the host cannot provide memory, the cached free blocks are released and the
//   allocation is retried once before OutOfMemoryError is raised;
// - host_empty_cache() releases every cached free block (blocks still waiting for their events
//   stay), never memory a tensor holds.
// Figures use torch.cuda.host_memory_stats()'s keys (pinned_stats below). Pinned memory needs
// a cuda backend (real or simulated); the raw memory comes from Backend::host_alloc.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "tide/allocator.h"
#include "tide/cuda/stream.h"

namespace tide::memory {

/// The allocator behind every pinned cpu tensor. Its allocate() raises tide::Error when no
/// cuda device exists and tide::OutOfMemoryError when the host cannot pin more memory.
Allocator* pinned_allocator();

/// Raises tide::Error "[where] ..." unless pinned memory can be allocated (a cuda device,
/// real or simulated, exists), as torch does without an accelerator.
void check_pinned_memory_available(const char* where);

/// Notes that work enqueued on `stream` so far reads or writes the pinned memory `data`, so
/// its block is reused only after that work completed. Returns false (and does nothing) when
/// `data` was not allocated by pinned_allocator().
bool record_pinned_use(const DataPtr& data, const cuda::Stream& stream);

/// torch.cuda.host_memory_stats()'s figures: "allocation.{current,peak,allocated,freed}",
/// the same for "segment", "allocated_bytes" and "reserved_bytes", "num_host_alloc",
/// "num_host_free", and "host_alloc_time.{total,max,min,count,avg}" and "host_free_time.*"
/// (microseconds).
std::map<std::string, int64_t> pinned_stats();
/// Releases every cached free pinned block to the host.
void pinned_empty_cache();
void pinned_reset_peak_stats();
void pinned_reset_accumulated_stats();
/// The n-th pinned allocation request from now (1 = the next) fails with OutOfMemoryError;
/// 0 disarms. TIDE_FAULT_PINNED_OOM_AT=n arms it when the allocator is first used.
void pinned_inject_oom_at(int64_t n);

}  // namespace tide::memory
