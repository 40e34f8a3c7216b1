#pragma once
// Helpers shared by the pinned memory tests (tests/pinned). They run once per device
// configuration (tests/CMakeLists.txt, tide_add_device_test_dir): with no cuda device pinned
// memory is unavailable, so most tests skip themselves then.

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/device_test_util.h"
#include "tide/cuda.h"
#include "tide/testing/sim_hooks.h"

namespace tide::test {

/// Guards a region that must not wait for a held stream. Correct code leaves the region at
/// once; code that (wrongly) waits for the held stream would hang, so after a minute the
/// guard releases the stream and the test fails instead. Not a timing margin: a correct run
/// never gets near it.
class MustNotWaitFor {
 public:
  explicit MustNotWaitFor(const cuda::Stream& held)
      : watchdog_([this, held] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, std::chrono::minutes(1), [&] { return done_; })) {
            fired_ = true;
            tide::testing::release_stream(held);
          }
        }) {}
  ~MustNotWaitFor() {
    if (watchdog_.joinable()) done();
  }
  /// Ends the region; false if it had to release the stream (the region waited for it).
  bool done() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    watchdog_.join();
    return !fired_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  std::thread watchdog_;
};

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
