#pragma once
// Pinned (page-locked) host memory: statistics, cache control and fault injection, as
// torch.cuda.host_memory_stats() and friends. Pinned tensors come from
// Tensor::pin_memory() and TensorOptions::pinned_memory(true).

#include <cstdint>
#include <map>
#include <string>

namespace tide::cuda {

/// The pinned allocator's figures with torch's keys: "allocation.{current,peak,allocated,freed}"
/// (blocks handed out and not yet reusable), the same for "allocated_bytes", "segment" (host
/// allocations) and "reserved_bytes"; "num_host_alloc", "num_host_free"; and
/// "host_alloc_time.{total,max,min,count,avg}" / "host_free_time.*" in microseconds.
std::map<std::string, int64_t> host_memory_stats();
/// Returns every cached pinned block that no tensor holds and no pending copy uses to the host.
void host_empty_cache();
/// Resets the ".peak" figures of host_memory_stats() to the current values.
void reset_peak_host_memory_stats();
/// Resets the ".allocated" / ".freed" counters and the timing figures of host_memory_stats().
void reset_accumulated_host_memory_stats();
/// Testing: the n-th pinned allocation from now (1 = the next) fails with OutOfMemoryError,
/// as if the host could not pin more memory; 0 disarms. TIDE_FAULT_PINNED_OOM_AT=n arms it
/// at the first pinned allocation of the process. Separate from inject_oom_at (device memory).
void inject_pinned_oom_at(int64_t n);

}  // namespace tide::cuda
