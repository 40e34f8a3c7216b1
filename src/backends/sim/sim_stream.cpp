#include "backends/sim/sim_stream.h"

#include <exception>

#include "runtime/error_channel.h"

namespace tide::sim {

SimStream::SimStream(int device, uint64_t id, int priority)
    : device_(device), id_(id), priority_(priority), worker_([this] { run(); }) {}

SimStream::~SimStream() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  worker_.join();
}

uint64_t SimStream::enqueue(const runtime::LaunchInfo& info, runtime::Task task) {
  uint64_t seq;
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    seq = ++last_enqueued_;
    ring_.put(seq, info);
    push(Item{seq, std::move(task)});
    wake = worker_sleeping_;
  }
  if (wake) work_cv_.notify_one();
  return seq;
}

uint64_t SimStream::last_enqueued() {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_enqueued_;
}

bool SimStream::done_through(uint64_t seq) {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ >= seq;
}

void SimStream::wait_through(uint64_t seq) {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiters_;
  done_cv_.wait(lock, [&] { return completed_ >= seq || exiting_; });
  --waiters_;
}

void SimStream::begin_exit() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    exiting_ = true;
  }
  work_cv_.notify_all();
  done_cv_.notify_all();
}

bool SimStream::wait_idle_for_exit(std::chrono::milliseconds bound) {
  std::unique_lock<std::mutex> lock(mutex_);
  return done_cv_.wait_for(lock, bound, [&] { return !running_; });
}

void SimStream::hold() {
  std::lock_guard<std::mutex> lock(mutex_);
  held_ = true;
}

void SimStream::release() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ = false;
  }
  work_cv_.notify_all();
}

void SimStream::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    worker_sleeping_ = true;
    work_cv_.wait(lock, [&] { return stopping_ || exiting_ || (!held_ && !queue_empty()); });
    worker_sleeping_ = false;
    if (exiting_) {
      // Note [Simulated streams at exit]: queued work is dropped, and the worker parks rather
      // than ending: an ending thread tears down its thread-locals while exit's leak checks
      // and destructors may still look at them.
      work_cv_.wait(lock, [] { return false; });
    }
    if (held_ || queue_empty()) return;  // stopping, and nothing that may run is left
    Item item = pop();
    running_ = true;
    runtime::ExecutingTask executing{device_, id_, item.seq, ring_.find(item.seq)};
    lock.unlock();
    {
      runtime::ExecutingTaskScope scope(&executing);
      try {
        item.task();
      } catch (const std::exception& e) {
        runtime::record_kernel_error(e.what());
      } catch (...) {
        runtime::record_kernel_error("a task threw an exception that is not a std::exception");
      }
    }
    item.task = nullptr;  // release captures before completion is visible
    lock.lock();
    completed_ = item.seq;
    running_ = false;
    if (waiters_ > 0 || exiting_) done_cv_.notify_all();
  }
}

void SimStream::push(Item item) {
  if (tail_ - head_ == slots_.size()) {
    // Full: unroll the ring into a twice-as-large vector, oldest first.
    std::vector<Item> bigger(slots_.size() * 2);
    for (uint64_t i = head_; i < tail_; ++i) bigger[i - head_] = std::move(slots_[i % slots_.size()]);
    tail_ -= head_;
    head_ = 0;
    slots_.swap(bigger);
  }
  slots_[tail_++ % slots_.size()] = std::move(item);
}

SimStream::Item SimStream::pop() {
  Item item = std::move(slots_[head_ % slots_.size()]);
  ++head_;
  return item;
}

}  // namespace tide::sim
