#pragma once
// Helpers shared by the pinned memory tests (tests/pinned). They run once per device
// configuration (tests/CMakeLists.txt, tide_add_device_test_dir): with no cuda device pinned
// memory is unavailable, so most tests skip themselves then.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "runtime/device_test_util.h"
#include "support/sim_streams.h"
#include "tide/cuda.h"
#include "tide/testing/sim_hooks.h"

namespace tide::test {

/// Waits for every device, so that no copy of an earlier test still holds a pinned block,
/// then releases the pinned cache: each test starts from an empty pinned cache.
inline void quiesce_pinned_memory() {
  for (int d = 0; d < cuda::device_count(); ++d) cuda::synchronize(d);
  cuda::host_empty_cache();
}

/// host_memory_stats()[key], failing the test if the key is missing.
inline int64_t host_stat(const std::string& key) {
  auto stats = cuda::host_memory_stats();
  auto it = stats.find(key);
  EXPECT_NE(it, stats.end()) << "host_memory_stats() has no key '" << key << "'";
  return it == stats.end() ? -1 : it->second;
}

}  // namespace tide::test
