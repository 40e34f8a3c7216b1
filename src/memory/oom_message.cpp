#include "memory/oom_message.h"

#include <sstream>

namespace tide::memory {

std::string format_size(uint64_t size) {
  std::ostringstream os;
  os.precision(2);
  os << std::fixed;
  if (size <= 1024) {
    os << size << " bytes";
  } else if (size <= 1048576) {
    os << static_cast<double>(size) / 1024.0 << " KiB";
  } else if (size <= 1073741824ULL) {
    os << static_cast<double>(size) / 1048576.0 << " MiB";
  } else {
    os << static_cast<double>(size) / 1073741824.0 << " GiB";
  }
  return os.str();
}

// Note [OOM message]: torch's first sentence ("CUDA out of memory. Tried to allocate X.
// GPU n has a total capacity of ... of which ... is free.") so habits and searches carry
// over, then what torch leaves out: the request in bytes, the segment size the allocator
// needed, the largest free cached block and the number of free cached blocks. Free cached
// memory that cannot serve the request is fragmentation; when it is large the message
// suggests max_split_size_mb. Then what to try, most effective first.
std::string oom_message(const OomInfo& info) {
  std::ostringstream os;
  const int64_t cached_unused = info.reserved - info.allocated;
  os << "[CachingAllocator::malloc] CUDA out of memory. Tried to allocate "
     << format_size(static_cast<uint64_t>(info.requested)) << " (" << info.requested << " bytes";
  if (info.alloc_size != info.requested) {
    os << "; needs a new segment of " << format_size(static_cast<uint64_t>(info.alloc_size));
  }
  os << "). GPU " << info.device << " has a total capacity of " << format_size(static_cast<uint64_t>(info.capacity))
     << " of which " << format_size(static_cast<uint64_t>(info.device_free)) << " is free. ";
  if (info.allowed >= 0) {
    os << "This process is limited to " << format_size(static_cast<uint64_t>(info.allowed))
       << " (set_per_process_memory_fraction(" << info.fraction << ")). ";
  }
  os << "Of the allocated memory " << format_size(static_cast<uint64_t>(info.allocated))
     << " is allocated by tensors, and " << format_size(static_cast<uint64_t>(cached_unused))
     << " is reserved by the caching allocator but unallocated; the largest free cached block is "
     << format_size(static_cast<uint64_t>(info.largest_free_block)) << " in " << info.free_blocks
     << " free cached block" << (info.free_blocks == 1 ? "" : "s") << ".";
  if (info.injected) {
    os << " This failure was injected for testing (inject_oom_at / TIDE_FAULT_OOM_AT).";
  }
  os << " To try: free tensors you no longer need (and call tide::cuda::empty_cache() so "
        "other processes can use cached memory); use a smaller batch size";
  const bool fragmented = cached_unused > 0 && cached_unused >= info.requested &&
                          info.largest_free_block < info.requested;
  if (fragmented) {
    os << "; the cache holds enough unused memory but no block large enough (fragmentation): "
          "set TIDE_CUDA_ALLOC_CONF=max_split_size_mb:N (N in MiB, > 20) so large blocks are not split";
  } else if (!info.max_split_size_set && cached_unused > info.allocated / 4 && cached_unused > 0) {
    os << "; if reserved but unallocated memory is large, try TIDE_CUDA_ALLOC_CONF=max_split_size_mb:N "
          "to reduce fragmentation";
  }
  if (info.allowed >= 0) {
    os << "; or raise the limit with tide::cuda::set_per_process_memory_fraction()";
  } else {
    os << "; or, to share the GPU, cap this process with tide::cuda::set_per_process_memory_fraction()";
  }
  os << ".";
  return os.str();
}

}  // namespace tide::memory
