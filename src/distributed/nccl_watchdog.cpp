#include "distributed/nccl_watchdog.h"

#include <cstdlib>
#include <set>
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

namespace {

/// The watchdogs whose threads run, stopped at process exit (Note [NCCL watchdog]). Leaked:
/// it must outlive every static a group may be.
struct RunningWatchdogs {
  std::mutex mutex;
  std::set<NcclWatchdog*> running;

  static RunningWatchdogs& get() {
    static RunningWatchdogs* registry = [] {
      auto* made = new RunningWatchdogs;
      // Registered after the communicators' exit handler (a group makes its communicator
      // before it starts its watchdog), so it runs before it.
      std::atexit([] {
        RunningWatchdogs& r = get();
        std::lock_guard<std::mutex> lock(r.mutex);
        for (NcclWatchdog* dog : r.running) dog->stop();
      });
      return made;
    }();
    return *registry;
  }
};

}  // namespace

NcclWatchdog::NcclWatchdog(CommunicatorHealth& comm, int rank, std::chrono::milliseconds timeout)
    : comm_(comm), rank_(rank), timeout_(timeout) {}

NcclWatchdog::~NcclWatchdog() {
  {
    RunningWatchdogs& registry = RunningWatchdogs::get();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.running.erase(this);
  }
  stop();
}

void NcclWatchdog::watch(WatchedCollective collective) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!broken_.empty()) {
      // The communicator is gone, but what was enqueued behind it may still touch the tensors.
      if (collective.status) collective.status->fail(broken_);
      collective.arrival = nullptr;
      draining_.push_back(std::move(collective));
    } else {
      pending_.push_back(std::move(collective));
    }
  }
  cv_.notify_one();
}

namespace {

/// A query that raised (a CUDA error) counts as not finished; its text is kept.
bool finished(const WatchedCollective& c, std::string& error) {
  try {
    return c.finished();
  } catch (const std::exception& e) {
    if (error.empty()) error = e.what();
    return false;
  }
}

}  // namespace

void NcclWatchdog::poll(WatchdogClock::time_point now) {
  std::vector<WatchedCollective> done;  // released after the lock (their deleters)
  std::string failure;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failure = check_locked(now, done);
    if (!failure.empty() && !break_locked(failure)) failure.clear();
  }
  if (!failure.empty()) comm_.abort();
}

std::string NcclWatchdog::check_locked(WatchdogClock::time_point now,
                                       std::vector<WatchedCollective>& done) {
  std::string query_error;
  for (size_t i = 0; i < draining_.size();) {
    if (finished(draining_[i], query_error)) {
      done.push_back(std::move(draining_[i]));
      draining_.erase(draining_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  if (!broken_.empty()) return "";
  // Arrival checks first: a mismatch explains a hang better than the timeout does.
  for (WatchedCollective& c : pending_) {
    if (!c.arrival) continue;
    Arrival a;
    try {
      a = c.arrival();
    } catch (const std::exception& e) {
      a = Arrival{Arrival::State::Failed, e.what()};
    }
    if (a.state == Arrival::State::Failed) return a.message;
    if (a.state == Arrival::State::Matched) c.arrival = nullptr;  // checked once
  }
  while (!pending_.empty() && !pending_.front().arrival &&
         finished(pending_.front(), query_error)) {
    if (pending_.front().status) pending_.front().status->retire();
    done.push_back(std::move(pending_.front()));  // Note [Work keeps its tensors]: now they go
    pending_.pop_front();
  }
  if (pending_.empty()) return "";
  const WatchedCollective& oldest = pending_.front();
  if (!query_error.empty()) {
    return tide::detail::concat("[", oldest.name, "] rank ", rank_, " could not query its "
                                "collectives' progress while collective #", oldest.seq, " (",
                                oldest.description, ") was pending: ", query_error);
  }
  const std::string error = comm_.async_error();
  if (!error.empty()) {
    return tide::detail::concat(
        "[", oldest.name, "] NCCL reported an error on rank ", rank_,
        " while collective #", oldest.seq, " (", oldest.description, ") or a later one ran: ",
        error);
  }
  if (now - oldest.issued > timeout_) {
    return tide::detail::concat(
        "[", oldest.name, "] rank ", rank_, "'s collective #", oldest.seq, " (",
        oldest.description, ") did not finish within ", timeout_.count(),
        " ms (the process group's timeout): a peer hung, died or called other collectives. The "
        "NCCL communicator is aborted and the process group is broken: let this process exit "
        "(non-zero) and restart the job, or raise the timeout in init_process_group if the "
        "peers are only slow");
  }
  return "";
}

bool NcclWatchdog::break_locked(const std::string& reason) {
  if (!broken_.empty()) return false;
  broken_ = reason;
  // Failed before the abort: a host waiting on an end event wakes once the abort stops the
  // kernels, and must find the failure already there.
  for (WatchedCollective& c : pending_) {
    if (c.status) c.status->fail(reason);
    c.arrival = nullptr;
    draining_.push_back(std::move(c));
  }
  pending_.clear();
  return true;
}

void NcclWatchdog::fail(const std::string& reason) {
  bool broke = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    broke = break_locked(reason);
  }
  if (broke) comm_.abort();
  cv_.notify_all();
}

void NcclWatchdog::start(std::chrono::milliseconds interval) {
  {
    RunningWatchdogs& registry = RunningWatchdogs::get();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.running.insert(this);
  }
  thread_ = std::thread([this, interval] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      // Idle while nothing is pending: an unused group costs no polling (and at exit, no
      // CUDA call from this thread).
      cv_.wait(lock, [this] { return stopping_ || !pending_.empty() || !draining_.empty(); });
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
  return pending_.size() + draining_.size();
}

}  // namespace tide::distributed::detail
