#pragma once
// The caching allocator's out-of-memory message (Note [OOM message]).

#include <cstdint>
#include <string>

namespace tide::memory {

/// What the message reports; gathered under the allocator's lock after the retry failed.
struct OomInfo {
  int device = 0;
  int64_t requested = 0;          // bytes the caller asked for
  int64_t alloc_size = 0;         // bytes of the segment the allocator tried to obtain
  int64_t capacity = 0;           // the device's total memory
  int64_t device_free = 0;        // what the device could still hand out
  int64_t allocated = 0;          // bytes in blocks tensors hold
  int64_t reserved = 0;           // bytes in segments the cache holds
  int64_t largest_free_block = 0; // the largest free cached block (any stream)
  int64_t free_blocks = 0;        // number of free cached blocks
  int64_t allowed = -1;           // set_memory_fraction's limit in bytes, or -1
  double fraction = 1.0;
  bool max_split_size_set = false;
  bool injected = false;          // inject_oom_at / TIDE_FAULT_OOM_AT
};

/// torch's format_size: "512 bytes", "1.50 KiB", "20.00 MiB", "1.00 GiB".
std::string format_size(uint64_t bytes);
/// Note [OOM message].
std::string oom_message(const OomInfo& info);

}  // namespace tide::memory
