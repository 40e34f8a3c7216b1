// tide::cuda's pinned host memory functions (tide/cuda/host_memory.h) over the pinned allocator.

#include "tide/cuda/host_memory.h"

#include "memory/pinned_allocator.h"

namespace tide::cuda {

std::map<std::string, int64_t> host_memory_stats() { return memory::pinned_stats(); }
void host_empty_cache() { memory::pinned_empty_cache(); }
void reset_peak_host_memory_stats() { memory::pinned_reset_peak_stats(); }
void reset_accumulated_host_memory_stats() { memory::pinned_reset_accumulated_stats(); }
void inject_pinned_oom_at(int64_t n) { memory::pinned_inject_oom_at(n); }

}  // namespace tide::cuda
