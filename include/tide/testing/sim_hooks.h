#pragma once
// Test-only controls of the simulated GPU backend. Never needed by user code.

#include <atomic>

#include "tide/cuda/stream.h"

namespace tide::testing {

/// Presents `n` simulated GPUs as if TIDE_SIM_DEVICES=n (overriding the variable). Only
/// before the cuda backend's first use; afterwards it raises tide::Error, since the backend
/// is chosen once per process. CUDA_VISIBLE_DEVICES still applies.
void set_sim_devices_for_testing(int n);
/// Whether cuda devices in this process are simulated (initializes the backend).
bool sim_active();

/// Stops the stream's worker before its next task: later work stays queued (and query()
/// false) until release_stream. A task already running finishes. Raises unless simulated.
void hold_stream(const cuda::Stream& stream);
/// Lets a held stream's worker run its queued tasks again.
void release_stream(const cuda::Stream& stream);

/// Turns the capture of enqueue backtraces on or off for launches from now on, as if
/// TIDE_ASYNC_BACKTRACE=1 were (or were not) set, overriding the variable; KernelErrors of
/// ops launched while it is on name where they were enqueued. Initializes the backend.
void set_async_backtrace_for_testing(bool enabled);

/// RAII hold_stream/release_stream.
class StreamHold {
 public:
  explicit StreamHold(const cuda::Stream& stream) : stream_(stream) { hold_stream(stream_); }
  ~StreamHold() { release(); }
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;
  /// Releases once, whichever thread calls first: a test may release from a helper thread
  /// while the hold's owner reaches its destructor.
  void release() {
    if (held_.exchange(false)) release_stream(stream_);
  }

 private:
  cuda::Stream stream_;
  std::atomic<bool> held_{true};
};

}  // namespace tide::testing
