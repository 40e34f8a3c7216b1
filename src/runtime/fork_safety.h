#pragma once
// Fork safety: a child forked after the cuda runtime started cannot use cuda.
//
// Note [Fork safety]: fork() copies the calling thread only. A simulated GPU's streams are
// worker threads and a real GPU's context belongs to the parent's driver connection, so in a
// child forked after the cuda runtime started (registry.h's first use) every stream, event and
// context it inherited is dead: work enqueued there would never run, or crash; and a lock one
// of the parent's threads held at the fork is never released. As torch ("Cannot re-initialize
// CUDA in forked subprocess"), such a child gets a tide::Error naming the cause and the fix the
// first time it touches a cuda device, raised before any lock is taken: at the registry's
// backend lookups (every launch, copy, event, synchronize and cuda:: call), at a device
// allocation, at a new pool stream, at pinned memory. Its cpu work goes on; device_count() and
// is_available() still answer (they read what the parent found) and empty_cache() does
// nothing, as torch's. Cleanup of cuda objects the child inherited (events, guards, device and
// pinned memory) does nothing in it: the device work it would order, and the caches it would
// update, are the parent's. A pthread_atfork child handler, registered when the cuda runtime
// starts with devices, marks the child; a child forked before any cuda use starts its own
// runtime normally (the fix). DataLoader workers are threads, never processes (Note
// [DataLoader workers]).

#include <atomic>

namespace tide::runtime {

/// Set in a child forked after the cuda runtime started (by the atfork handler); read through
/// in_bad_fork().
extern std::atomic<bool> g_bad_fork;

/// Registers, once per process, the pthread_atfork handler that marks children forked from
/// now on. Called by the registry when the cuda runtime starts.
void watch_forks();
/// Whether this process is a child forked after its parent started the cuda runtime.
inline bool in_bad_fork() noexcept { return g_bad_fork.load(std::memory_order_relaxed); }
/// Raises tide::Error "[where] ..." (Note [Fork safety]): call only when in_bad_fork().
[[noreturn]] void raise_bad_fork(const char* where);

}  // namespace tide::runtime
