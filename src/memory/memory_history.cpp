// tide::cuda's history and snapshot functions (include/tide/cuda/memory_history.h) over the
// device caching allocators.

#include "tide/cuda/memory_history.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "memory/caching_allocator.h"
#include "memory/device_allocators.h"
#include "memory/snapshot.h"
#include "tide/cuda/device.h"
#include "tide/error.h"

namespace tide::cuda {

void record_memory_history(bool enabled, size_t max_entries) {
  TIDE_CHECK(!enabled || max_entries > 0,
             "[tide::cuda::record_memory_history] max_entries must be at least 1, got 0; pass "
             "the number of trace entries to keep per device (the default keeps 100000)");
  // Allocators are created at first use; create them now so that history starts with the
  // first allocation. Without devices there is nothing to record and no error: the same
  // program runs on cpu-only machines.
  for (int device = 0; device < device_count(); ++device) {
    if (enabled) {
      memory::device_allocator(device).record_history(true, max_entries);
    } else if (memory::CachingAllocator* a = memory::device_allocator_if_created(device)) {
      a->record_history(false, max_entries);
    }
  }
}

std::string memory_snapshot() {
  std::vector<memory::CachingAllocator*> allocators;
  for (int device = 0; device < device_count(); ++device) {
    if (memory::CachingAllocator* a = memory::device_allocator_if_created(device)) {
      allocators.push_back(a);
    }
  }
  return memory::snapshot_json(allocators, device_count());
}

void dump_snapshot(const std::string& path) {
  std::string json = memory_snapshot();
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  TIDE_CHECK(file.good(), "[tide::cuda::dump_snapshot] cannot write '", path, "': ",
             std::strerror(errno), "; pass a path in a directory that exists and is writable");
  file << json;
  file.close();
  TIDE_CHECK(!file.fail(), "[tide::cuda::dump_snapshot] writing '", path, "' failed: ",
             std::strerror(errno), "; check the free space of its file system");
}

}  // namespace tide::cuda
