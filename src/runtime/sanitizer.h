#pragma once
// The stream sanitizer's hooks: what the runtime, tensor and memory layers tell it.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "tide/cuda/stream.h"

namespace tide::runtime {

/// Note [Stream sanitizer] (DESIGN.md decision 9; torch.cuda._sanitizer spelled for tide).
/// Switched on by TIDE_CUDA_SANITIZER=1 (read once, when the backends start) or
/// cuda::enable_sanitizer(). It keeps, on the host, what torch's StreamSynchronizations keeps:
/// - a vector clock per stream (one component per stream of every device): a launch on S
///   advances S's own component; Event::record copies S's clock into the event;
///   Event::wait / Stream::wait_stream join the event's clock into the waiting stream's;
///   Stream/Event::synchronize and cuda::synchronize (and a query() that returns true) join
///   the awaited clock into the host's, and every stream joins the host's clock before its
///   next use (lazily, by a generation count), since everything enqueued after a host wait
///   comes after it. All host threads count as one host, as in torch: an ordering made by
///   host-side locks between threads is not visible, so it can hide a race, never invent one;
/// - the access history of memory: for each launch, the byte ranges it reads and writes
///   (the extent of each tensor view, from the op's kernel stub: Note [Kernel stubs]) with the
///   op's provenance (op, scope, stream, sequence, enqueue backtrace; the same LaunchInfo the
///   OpRing keeps). Device memory and pinned host memory are tracked; pageable host memory
///   never is (copies to or from it synchronize or stage it).
/// A read of bytes that another stream wrote, or a write over bytes another stream read or
/// wrote, where the earlier access's stream component is not yet in the accessing stream's
/// clock, raises StreamRaceError naming both ops. Host code (cpu ops, item(), tolist())
/// reading or writing pinned memory is checked against the host's clock the same way.
///
/// It raises at enqueue time, on the host, before the racing op is enqueued (as torch's
/// does at the op's call): the verdict depends only on the program's order of calls, never
/// on timing, so a race is reported on every run, on simulated and real GPUs alike, and the
/// op's enqueue site is the throwing call's own stack. Its model is the program as written:
/// CUDA_LAUNCH_BLOCKING=1 does not order anything for it.
///
/// Memory handed out again by an allocator is ordered by that allocator's own stream events
/// (Note [Stream uses], Note [Pinned host memory]), which the host only polls: so a free
/// forgets the block's history (caching allocator and pinned allocator free paths). Memory
/// no allocator tracks (from_blob) keeps its history until overwritten, so a reuse of it
/// that races is reported.
///
/// What it does not see: an allocation is not an access, so a tensor handed out on stream S
/// and first written on T without T waiting for S is not reported (nor by torch's); memory
/// reached outside tide ops (raw pointers) is not declared; orderings made only between host
/// threads are invisible (see above).
///
/// Off, each hook's caller pays one predictable branch on a relaxed load
/// (sanitizer_enabled()), and nothing is built; bench/runtime_bench.cpp measures both.

/// Set by enable/disable; read through sanitizer_enabled.
extern std::atomic<bool> g_sanitizer;

/// Whether launches are checked now. The per-op cost of the sanitizer when off.
inline bool sanitizer_enabled() { return g_sanitizer.load(std::memory_order_relaxed); }

/// Turns the sanitizer on (the registry at start when TIDE_CUDA_SANITIZER=1, or the API).
void sanitizer_enable();
/// Turns it off and forgets every clock and access.
void sanitizer_disable();

/// One byte range an op touches. [lo, hi) lies inside the allocation [base, base + size),
/// which groups the ranges of views of one storage.
struct MemoryAccess {
  uintptr_t base;
  size_t size;
  uintptr_t lo;
  uintptr_t hi;
  bool write;
};

/// Checks a launch of `op` on `stream` that makes `accesses` against the history, then
/// records them; raises StreamRaceError (recording nothing) on the first unordered conflict.
void sanitize_launch(const cuda::Stream& stream, const char* op, const MemoryAccess* accesses,
                     size_t count);
/// Checks host code `op` that makes `accesses` now (cpu ops on pinned memory, item());
/// records nothing, since the host's accesses are complete when the call returns.
void sanitize_host_access(const char* op, const MemoryAccess* accesses, size_t count);

/// Synchronization, as the runtime performs it (Note [Stream sanitizer]).
void sanitizer_event_record(const void* event, const cuda::Stream& stream);
void sanitizer_event_wait(const void* event, const cuda::Stream& stream);
void sanitizer_event_synchronize(const void* event);
void sanitizer_event_destroyed(const void* event) noexcept;
void sanitizer_stream_synchronize(const cuda::Stream& stream);
void sanitizer_device_synchronize(int device);

/// The allocator made [ptr, ptr + nbytes) free: its history is forgotten.
void sanitizer_memory_freed(const void* ptr, size_t nbytes) noexcept;

}  // namespace tide::runtime
