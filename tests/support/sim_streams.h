#pragma once
// Helpers for tests that hold the worker of a simulated stream (tide/testing/sim_hooks.h) to
// prove that an op is asynchronous: shared by the device and pinned memory tests.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tide/cuda.h"
#include "tide/testing/sim_hooks.h"

namespace tide::test {

/// Guards a region that must not wait for a held stream. Correct code leaves the region at
/// once; code that (wrongly) waits for the held stream would hang the test, so after a minute
/// the guard releases the stream and the test fails instead. Not a timing margin: a correct
/// run never gets near it.
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

}  // namespace tide::test
