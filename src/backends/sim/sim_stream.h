#pragma once
// SimStream: one simulated cuda stream, a worker thread running its tasks in FIFO order.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <vector>
#include <mutex>
#include <thread>

#include "runtime/backend.h"
#include "runtime/op_ring.h"

namespace tide::sim {

/// Note [Simulated streams]: each stream owns a worker thread and a FIFO of (sequence number,
/// task). Enqueueing takes the stream's lock once: assign the next sequence number, note the
/// op in the OpRing, append the task. The worker runs tasks outside the lock and then
/// publishes `completed = seq` under it, so "all work up to n is done" is one comparison,
/// and an event is just (stream, n) (Note [Simulated events]). A task that throws, or calls
/// runtime::record_kernel_error, is reported to the async error channel and the worker goes
/// on. A task's captures are destroyed before its completion is published, so whatever a
/// task keeps alive is released by the time a synchronize returns. Priorities are recorded
/// but not scheduled: every stream has its own thread, so none waits for another anyway.
class SimStream final : public runtime::StreamRecord {
 public:
  SimStream(int device, uint64_t id, int priority);
  /// Stops the worker after the tasks that can still run (not those behind a hold).
  ~SimStream();
  SimStream(const SimStream&) = delete;
  SimStream& operator=(const SimStream&) = delete;

  /// Returns the task's sequence number (1, 2, ...).
  uint64_t enqueue(const runtime::LaunchInfo& info, runtime::Task task);
  /// Sequence number of the last task enqueued so far (0: none).
  uint64_t last_enqueued();
  /// Whether every task up to `seq` has finished.
  bool done_through(uint64_t seq);
  /// Blocks until every task up to `seq` has finished.
  void wait_through(uint64_t seq);
  bool query() { return done_through(last_enqueued()); }
  void synchronize() { wait_through(last_enqueued()); }

  /// Testing: hold the worker before its next task / let it go on.
  void hold();
  void release();

  /// Note [Simulated streams at exit]: the process is exiting. The worker finishes the task
  /// it is running and starts no other (queued work is dropped, as a GPU's context is torn
  /// down at exit), and waits on other streams stop waiting. Without this the workers run on
  /// during exit and a task can be inside a library (OpenBLAS) that exit is unloading.
  /// Two steps, so that a task waiting on another stream is released before anyone waits:
  /// begin_exit on every stream, then wait_idle_for_exit on each.
  void begin_exit();
  /// Waits (at most `bound`) until the worker runs no task; false when the bound passed.
  bool wait_idle_for_exit(std::chrono::milliseconds bound);

  int device() const { return device_; }
  uint64_t id() const { return id_; }
  int priority() const { return priority_; }

 private:
  struct Item {
    uint64_t seq;
    runtime::Task task;
  };
  void run();
  /// The FIFO is a ring over `slots_` that only grows, so a steady stream of launches
  /// allocates nothing beyond each task (STYLE.md habit 14).
  void push(Item item);
  Item pop();
  bool queue_empty() const { return head_ == tail_; }

  const int device_;
  const uint64_t id_;
  const int priority_;
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::vector<Item> slots_{64};
  uint64_t head_ = 0;  // next to pop
  uint64_t tail_ = 0;  // next to push
  int waiters_ = 0;              // host threads in wait_through: notify only when someone waits
  bool worker_sleeping_ = false;  // notify the worker only when it waits for work
  runtime::OpRing ring_;
  uint64_t last_enqueued_ = 0;
  uint64_t completed_ = 0;
  bool held_ = false;
  bool stopping_ = false;
  bool exiting_ = false;  // Note [Simulated streams at exit]
  bool running_ = false;  // the worker is inside a task
  std::thread worker_;  // last: starts after every other member exists
};

}  // namespace tide::sim
