#pragma once
// CollectiveWork: the Work handle of a collective run by a communication thread.

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>

#include "tide/cuda/stream.h"
#include "tide/distributed/process_group.h"

namespace tide::distributed::detail {

/// What the issuing thread, the tensor's stream and the communication thread share about one
/// collective. `name` is a string literal ("all_reduce"): it names the collective's tasks on
/// the stream, so an asynchronous failure reads as that op's KernelError.
struct CollectiveState {
  explicit CollectiveState(const char* name) : name(name) {}

  /// The stream reached the collective (its earlier work is done): the data may be read.
  void mark_ready();
  /// Waits until mark_ready or the deadline; false on the deadline.
  bool wait_ready_until(std::chrono::steady_clock::time_point deadline);
  /// The collective ended, with `error` when it failed.
  void finish(std::exception_ptr error);
  bool done();
  /// Blocks the calling thread until finish; rethrows the collective's error.
  void wait_done();

  const char* const name;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool ready_ = false;
  bool done_ = false;
  std::exception_ptr error_;
};

/// Makes `stream`'s later work wait for the collective: a task on the stream that blocks until
/// the communication thread finished it (as a GPU waits on NCCL's kernel) and fails — as the
/// collective's KernelError — when the collective did. Returns at once.
void enqueue_stream_wait(const std::shared_ptr<CollectiveState>& state, const cuda::Stream& stream);
/// Enqueues, on `stream`, the task that tells the communication thread the data is ready.
void enqueue_stream_ready(const std::shared_ptr<CollectiveState>& state, const cuda::Stream& stream);

/// Note [Work] in tide/distributed/process_group.h: on the host for cpu tensors, on the
/// caller's current stream of `device` for GPU tensors (device < 0: cpu).
class CollectiveWork final : public Work {
 public:
  CollectiveWork(std::shared_ptr<CollectiveState> state, int device)
      : state_(std::move(state)), device_(device) {}
  void wait() override;
  bool is_completed() override { return state_->done(); }

 private:
  std::shared_ptr<CollectiveState> state_;
  int device_;
};

}  // namespace tide::distributed::detail
