#include "distributed/collective_work.h"

#include <utility>

#include "runtime/launch.h"

namespace tide::distributed::detail {

void CollectiveState::mark_ready() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ready_ = true;
  }
  cv_.notify_all();
}

bool CollectiveState::wait_ready_until(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_until(lock, deadline, [this] { return ready_; });
}

void CollectiveState::finish(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    error_ = std::move(error);
  }
  cv_.notify_all();
}

bool CollectiveState::done() {
  std::lock_guard<std::mutex> lock(mutex_);
  return done_;
}

void CollectiveState::wait_done() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return done_; });
  if (error_) std::rethrow_exception(error_);
}

void enqueue_stream_wait(const std::shared_ptr<CollectiveState>& state,
                         const cuda::Stream& stream) {
  runtime::launch(stream, state->name, runtime::Task([state] { state->wait_done(); }));
}

void enqueue_stream_ready(const std::shared_ptr<CollectiveState>& state,
                          const cuda::Stream& stream) {
  runtime::launch(stream, state->name, runtime::Task([state] { state->mark_ready(); }));
}

void CollectiveWork::wait() {
  if (device_ < 0) {
    state_->wait_done();
    return;
  }
  enqueue_stream_wait(state_, cuda::current_stream(device_));
}

}  // namespace tide::distributed::detail
