#pragma once
// Shared host memory between processes: what Tensor.share_memory_() and tide.multiprocessing
// build on.
//
// Note [Shared memory segments]: torch's default sharing strategy on Linux, file_descriptor:
// a cpu storage moved to shared memory lives in an anonymous memory file (memfd_create), mapped
// MAP_SHARED; another process receives the file descriptor (Python's multiprocessing passes it
// over a unix socket: reduction.DupFd) and maps the same pages. Nothing has a name in /dev/shm,
// so nothing outlives the last process that maps or holds the file, even after a crash — the
// leak torch's file_system strategy is known for cannot happen. The segment's descriptor stays
// open while a storage maps it, so a storage received from one process can be sent on.

#include <cstddef>
#include <optional>

#include "tide/storage.h"

namespace tide::memory {

/// A segment: its file descriptor (owned by the storage's memory) and its size in bytes.
struct SharedSegment {
  int fd;
  size_t nbytes;
};

/// Moves a cpu storage's bytes into a new shared segment, for every tensor that uses it
/// (torch's share_memory_); a no-op for a storage already in one. Raises tide::Error for a
/// storage on another device and OutOfMemoryError when the system refuses the segment.
void share_storage(const Storage& storage, const char* where);

/// The segment behind `storage`, or nothing when it is not in shared memory.
std::optional<SharedSegment> shared_segment(const Storage& storage);

/// A cpu storage mapping the segment `fd` (nbytes long) that another process shared. Takes
/// ownership of `fd`: it is closed when the storage's memory is freed, or here on failure.
Storage map_shared_segment(int fd, size_t nbytes, const char* where);

}  // namespace tide::memory
