#pragma once
// CommThread: one host thread that runs a process group's communication jobs in issue order.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace tide::distributed::detail {

/// Note [One communication thread]: MPI requires every rank to enter collectives on a
/// communicator in the same order. Collectives are issued from any host thread and, for GPU
/// tensors, may only start once their stream reached them; running all of them on one thread,
/// first in first out, keeps the issue order as the execution order on every rank, and lets
/// MPI be initialized with MPI_THREAD_SERIALIZED (no MPI call ever runs on two threads at once).
/// The thread lives until the process exits (MPI cannot be initialized twice), so
/// destroy_process_group followed by init_process_group reuses it.
class CommThread {
 public:
  CommThread();
  /// Runs the jobs already queued, then `last` (MPI_Finalize), then joins.
  ~CommThread();
  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  /// Queues `job`; it runs after every job queued before it. Jobs must not throw.
  void post(std::function<void()> job);
  /// Note [Running a job on the caller]: when no job is queued or running, takes the thread's
  /// place — jobs posted meanwhile wait — and returns a Borrow that gives it back when
  /// destroyed; otherwise returns an empty Borrow. The caller then runs its job itself, in
  /// the order the thread would have.
  class Borrow;
  Borrow borrow_if_idle();
  /// The job the destructor runs last, after the queue drained.
  void set_last(std::function<void()> last);
  /// Whether the calling thread is this one.
  bool on_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

 private:
  void run();
  void give_back();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::function<void()> last_;
  bool stopping_ = false;
  bool busy_ = false;      // a job is running, on this thread or on a borrower
  bool borrowed_ = false;  // ... on a borrower
  std::thread thread_;
};

class CommThread::Borrow {
 public:
  Borrow() = default;
  explicit Borrow(CommThread* thread) : thread_(thread) {}
  Borrow(Borrow&& other) noexcept : thread_(std::exchange(other.thread_, nullptr)) {}
  Borrow& operator=(Borrow&&) = delete;
  ~Borrow() {
    if (thread_ != nullptr) thread_->give_back();
  }
  explicit operator bool() const { return thread_ != nullptr; }

 private:
  CommThread* thread_ = nullptr;
};

}  // namespace tide::distributed::detail
