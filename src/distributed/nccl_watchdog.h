#pragma once
// NcclWatchdog: watches a GPU process group's collectives until they finish, and turns a hang
// or an NCCL failure into an error instead of a stuck job.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tide/tensor.h"

namespace tide::distributed::detail {

using WatchdogClock = std::chrono::steady_clock;

/// What the watchdog asks of the communicator (NCCL's, or a fake in tests).
class CommunicatorHealth {
 public:
  virtual ~CommunicatorHealth() = default;
  /// "" while healthy, else the engine's error text (ncclCommGetAsyncError).
  virtual std::string async_error() = 0;
  /// Stops the communicator without waiting for its peers (ncclCommAbort).
  virtual void abort() = 0;
};

/// Where a collective's Work learns the watchdog's verdict: retired (it ended and its
/// arrival check matched) or failed.
class WorkStatus {
 public:
  void fail(const std::string& reason);
  void retire();
  /// "" unless failed.
  std::string reason() const;
  /// Whether the watchdog has a verdict: retired or failed.
  bool settled() const;

 private:
  mutable std::mutex mutex_;
  std::string reason_;
  bool retired_ = false;
};

/// The asynchronous arrival check of one collective (Note [Arrival check beside NCCL] in
/// nccl_backend.cpp): pending until the ranks' headers are in, then matched or not.
struct Arrival {
  enum class State { Pending, Matched, Failed };
  State state = State::Pending;
  std::string message;  // why it failed: a mismatch naming both calls, or a missing peer
};

/// One issued collective, as the watchdog sees it.
struct WatchedCollective {
  uint64_t seq = 0;
  const char* name = "";    // "all_reduce": a string literal
  std::string description;  // "all_reduce(SUM) of 4 float32 elements"
  WatchdogClock::time_point issued;
  std::function<bool()> finished;   // its end event's query
  std::function<Arrival()> arrival;  // empty: nothing to check
  std::shared_ptr<WorkStatus> status;
  /// Note [Work keeps its tensors]: held until the collective finished, so that memory the
  /// caching allocator does not own (from_blob, DLPack imports), which record_stream cannot
  /// protect, is not freed under a running collective.
  std::vector<Tensor> tensors;
};

/// Note [NCCL watchdog]: as torch's ProcessGroupNCCL watchdog, one per GPU group. Each round
/// (poll) it retires the collectives that finished, in issue order, releasing their tensors;
/// a collective finishes when its end event completed and its arrival check matched. It fails
/// the group when an arrival check failed (another call on a peer, or a peer that never
/// came), when the communicator reports an asynchronous error, or when the oldest unfinished
/// collective is older than the group's timeout. Failing means: abort the communicator (its
/// kernels stop, so streams waiting on them go on), fail every pending Work with the reason
/// (wait() raises DistBackendError naming the collective) and mark the group broken (the
/// next collective raises the same). A failed group's collectives keep their tensors until
/// their end events complete all the same: work queued behind an aborted kernel (all_gather's
/// copies, later collectives) may still write them. A CUDA error from an event query (a
/// sticky fault of any kernel) fails the group too, never the watchdog's thread. Tensors are
/// released outside the watchdog's lock (their deleters may take Python's GIL). The
/// decisions live in poll(now), so tests drive them with fakes and their own clock; start()
/// runs poll on a thread of its own, stopped at process exit before the communicators are
/// aborted (so no event is queried while CUDA tears down).
class NcclWatchdog {
 public:
  NcclWatchdog(CommunicatorHealth& comm, int rank, std::chrono::milliseconds timeout);
  ~NcclWatchdog();
  NcclWatchdog(const NcclWatchdog&) = delete;
  NcclWatchdog& operator=(const NcclWatchdog&) = delete;

  void watch(WatchedCollective collective);
  /// One round at time `now` (Note [NCCL watchdog]).
  void poll(WatchdogClock::time_point now);
  /// Polls every `interval` on a thread of its own while collectives are pending.
  void start(std::chrono::milliseconds interval);
  /// Stops that thread (pending collectives stay pending).
  void stop();
  /// Fails the group with `reason` (Note [NCCL watchdog]); the first reason stays.
  void fail(const std::string& reason);

  /// The failure that broke the group, "" while healthy.
  std::string broken_reason() const;
  /// Raises DistBackendError naming the failure once the group is broken.
  void check_healthy(const char* collective) const;
  /// Collectives not yet retired, failed ones still draining included.
  size_t pending() const;

 private:
  /// Under mutex_: marks the group broken and fails every pending Work; true when it did
  /// (the caller then aborts the communicator, outside the lock).
  bool break_locked(const std::string& reason);
  /// One round under mutex_: the failure found, or "".
  std::string check_locked(WatchdogClock::time_point now, std::vector<WatchedCollective>& done);

  CommunicatorHealth& comm_;
  const int rank_;
  const std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<WatchedCollective> pending_;
  std::vector<WatchedCollective> draining_;  // failed, waiting for their end events
  std::string broken_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tide::distributed::detail
