#pragma once
// tide::cuda caching-allocator statistics and control, as torch.cuda's memory functions.
// Device -1 means the current device; a device that does not exist raises tide::Error naming
// the device count. Figures are per device and count only memory of the caching allocator
// (tensors and the cache): a device nothing has allocated on reports 0 allocated, 0 reserved.

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace tide::cuda {

/// Bytes of the device's memory that tensors occupy now (torch.cuda.memory_allocated).
int64_t memory_allocated(int device = -1);
/// The highest memory_allocated since the start or the last reset_peak_memory_stats.
int64_t max_memory_allocated(int device = -1);
/// Bytes the caching allocator holds from the device: tensors plus the cache.
int64_t memory_reserved(int device = -1);
/// The highest memory_reserved since the start or the last reset_peak_memory_stats.
int64_t max_memory_reserved(int device = -1);
/// Same as memory_reserved (torch's older name).
int64_t memory_cached(int device = -1);
/// Same as max_memory_reserved (torch's older name).
int64_t max_memory_cached(int device = -1);

/// Returns every cached segment no tensor uses, on every device, to the device (after work
/// still using freed memory has finished). Memory that tensors hold stays.
void empty_cache();
/// Resets every ".peak" figure of the device to its current value.
void reset_peak_memory_stats(int device = -1);
/// Limits what the device's caching allocator may reserve to fraction × total memory (0..1),
/// raising OutOfMemoryError past it; also enables garbage_collection_threshold
/// (TIDE_CUDA_ALLOC_CONF), as torch.
void set_per_process_memory_fraction(double fraction, int device = -1);
/// Testing: the n-th caching-allocator allocation on the device from now (1 = the next) fails
/// exactly as a real out-of-memory would (OutOfMemoryError, cache freed and retried first);
/// 0 disarms. TIDE_FAULT_OOM_AT=n arms every device at its first allocation.
void inject_oom_at(int64_t n, int device = -1);

/// The allocator's figures with torch's flattened key names ("allocated_bytes.all.current",
/// "reserved_bytes.large_pool.peak", "num_ooms", ...), sorted by key as torch.
std::map<std::string, int64_t> memory_stats(int device = -1);
/// torch.cuda.memory_summary's table for the device; `abbreviated` leaves out the
/// large/small pool rows.
std::string memory_summary(int device = -1, bool abbreviated = false);
/// (free, total) bytes of the device, as cudaMemGetInfo (torch.cuda.mem_get_info).
std::pair<int64_t, int64_t> mem_get_info(int device = -1);

}  // namespace tide::cuda
