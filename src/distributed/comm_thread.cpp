#include "distributed/comm_thread.h"

#include <utility>

namespace tide::distributed::detail {

CommThread::CommThread() : thread_([this] { run(); }) {}

CommThread::~CommThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

void CommThread::post(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
}

CommThread::Borrow CommThread::borrow_if_idle() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (busy_ || !jobs_.empty() || stopping_) return Borrow();
  busy_ = true;
  borrowed_ = true;
  return Borrow(this);
}

void CommThread::give_back() {
  // Notified under the lock: once the thread sees the place given back it may end and be
  // destroyed (the destructor waits for a borrower), so this must not touch cv_ after.
  std::lock_guard<std::mutex> lock(mutex_);
  busy_ = false;
  borrowed_ = false;
  // Only when there is something to do: a needless wake costs a context switch on the core the
  // caller runs on, more than the hand-off this borrow saved.
  if (!jobs_.empty() || stopping_) cv_.notify_one();
}

void CommThread::set_last(std::function<void()> last) {
  std::lock_guard<std::mutex> lock(mutex_);
  last_ = std::move(last);
}

void CommThread::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return (stopping_ || !jobs_.empty()) && !borrowed_; });
    if (jobs_.empty()) break;  // stopping, and everything queued has run
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    busy_ = true;
    lock.unlock();
    job();
    job = nullptr;  // drop its captures (tensors) before taking the next one
    lock.lock();
    busy_ = false;
  }
  std::function<void()> last = std::move(last_);
  lock.unlock();
  if (last) last();
}

}  // namespace tide::distributed::detail
