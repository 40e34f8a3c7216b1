#pragma once
// The caching allocator of each cuda device, and the DataPtrs tensors hold on its memory.

#include <cstddef>
#include <cstdint>

#include "tide/allocator.h"
#include "tide/cuda/stream.h"

namespace tide::memory {

class CachingAllocator;  // caching_allocator.h (kept out of this header: ops include it)

/// cuda:`device`'s caching allocator, created at its first use with a DeviceUpstream and the
/// process's TIDE_CUDA_ALLOC_CONF (read once; a bad value raises tide::Error at that use and
/// the next use reads it again). `device` must already be checked. Thread-safe; allocators
/// live for the process (tensors may outlive every static object).
CachingAllocator& device_allocator(int device);
/// cuda:`device`'s allocator if something has used it, else nullptr (never creates one).
CachingAllocator* device_allocator_if_created(int device);

/// `nbytes` of cuda:`device` memory for a tensor, from its caching allocator, allocated on
/// the device's current stream (the DataPtr's stream). Freeing the DataPtr returns the block
/// (Note [Stream uses] in ops/dispatch.h). `op` is a string literal for snapshots.
DataPtr allocate_device_memory(int device, size_t nbytes, const char* op);
/// Whether `ptr` is memory of a device caching allocator (not from_blob or host memory).
bool is_caching_allocator_memory(const DataPtr& ptr);
/// Notes that work on `stream` uses the memory of `ptr`, so its block returns to the pool
/// only after that work (Note [Stream uses]). No-op for memory the caching allocator does
/// not own, for its allocation stream, and for a stream of another device.
void record_stream_use(const DataPtr& ptr, const cuda::Stream& stream);

}  // namespace tide::memory
