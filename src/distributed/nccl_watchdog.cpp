#include "distributed/nccl_watchdog.h"

#include <utility>

#include "tide/distributed/process_group.h"
#include "tide/error.h"

namespace tide::distributed::detail {

void WorkStatus::fail(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (reason_.empty() && !retired_) reason_ = reason;
}

void WorkStatus::retire() {
  std::lock_guard<std::mutex> lock(mutex_);
  retired_ = true;
}

std::string WorkStatus::reason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reason_;
}

bool WorkStatus::settled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return retired_ || !reason_.empty();
}

NcclWatchdog::NcclWatchdog(CommunicatorHealth& comm, int rank, std::chrono::milliseconds timeout)
    : comm_(comm), rank_(rank), timeout_(timeout) {}

NcclWatchdog::~NcclWatchdog() { stop(); }

void NcclWatchdog::watch(WatchedCollective collective) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!broken_.empty()) {
      // The communicator is gone: the collective was never going to run.
      if (collective.status) collective.status->fail(broken_);
      return;
    }
    pending_.push_back(std::move(collective));
  }
  cv_.notify_one();
}

void NcclWatchdog::poll(WatchdogClock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!broken_.empty()) return;
  // Arrival checks first: a mismatch explains a hang better than the timeout does.
  for (WatchedCollective& c : pending_) {
    if (!c.arrival) continue;
    Arrival a = c.arrival();
    if (a.state == Arrival::State::Failed) return fail_locked(a.message);
    if (a.state == Arrival::State::Matched) c.arrival = nullptr;  // checked once
  }
  while (!pending_.empty() && !pending_.front().arrival && pending_.front().finished()) {
    if (pending_.front().status) pending_.front().status->retire();
    pending_.pop_front();  // releases its tensors (Note [Work keeps its tensors])
  }
  if (pending_.empty()) return;
  const std::string error = comm_.async_error();
  const WatchedCollective& oldest = pending_.front();
  if (!error.empty()) {
    return fail_locked(tide::detail::concat(
        "[", oldest.name, "] NCCL reported an error on rank ", rank_,
        " while collective #", oldest.seq, " (", oldest.description, ") or a later one ran: ",
        error));
  }
  if (now - oldest.issued > timeout_) {
    return fail_locked(tide::detail::concat(
        "[", oldest.name, "] rank ", rank_, "'s collective #", oldest.seq, " (",
        oldest.description, ") did not finish within ", timeout_.count(),
        " ms (the process group's timeout): a peer hung, died or called other collectives. The "
        "NCCL communicator is aborted and the process group is broken: let this process exit "
        "(non-zero) and restart the job, or raise the timeout in init_process_group if the "
        "peers are only slow"));
  }
}

void NcclWatchdog::fail_locked(const std::string& reason) {
  broken_ = reason;
  comm_.abort();
  for (WatchedCollective& c : pending_) {
    if (c.status) c.status->fail(reason);
  }
  // The aborted communicator's kernels have stopped: nothing reads these tensors any more.
  pending_.clear();
}

void NcclWatchdog::start(std::chrono::milliseconds interval) {
  thread_ = std::thread([this, interval] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      // Idle while nothing is pending: an unused group costs no polling (and at exit, no
      // CUDA call from this thread).
      cv_.wait(lock, [this] { return stopping_ || (!pending_.empty() && broken_.empty()); });
      if (stopping_) break;
      lock.unlock();
      poll(WatchdogClock::now());
      lock.lock();
      cv_.wait_for(lock, interval, [this] { return stopping_; });
    }
  });
}

void NcclWatchdog::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string NcclWatchdog::broken_reason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return broken_;
}

void NcclWatchdog::check_healthy(const char* collective) const {
  const std::string reason = broken_reason();
  TIDE_CHECK_T(DistBackendError, reason.empty(), "[", collective,
               "] the process group is broken: ", reason);
}

size_t NcclWatchdog::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.size();
}

}  // namespace tide::distributed::detail
