#pragma once
// parallel_apply: replicas run at once, one host thread per device
// (torch.nn.parallel.parallel_apply), on threads that live as long as their DataParallel.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "tide/nn/module.h"

namespace tide::nn::parallel {

/// Worker threads for parallel_apply: started when first needed, reused by later calls,
/// joined by the destructor. One call at a time (DataParallel serializes its forwards).
class ReplicaThreads {
 public:
  ReplicaThreads() = default;
  ~ReplicaThreads();
  ReplicaThreads(const ReplicaThreads&) = delete;
  ReplicaThreads& operator=(const ReplicaThreads&) = delete;

  /// Runs task(i) for every i in [0, n): task(0) on the calling thread, task(i) on worker i.
  /// Returns when every task has returned, with each one's exception (null where none).
  std::vector<std::exception_ptr> run(size_t n, const std::function<void(size_t)>& task);

 private:
  void work(size_t index);

  std::mutex mutex_;
  std::condition_variable wake_;  // a new round, or stopping
  std::condition_variable done_;  // the round's worker tasks all returned
  const std::function<void(size_t)>* task_ = nullptr;
  uint64_t round_ = 0;  // bumped by each run()
  size_t active_ = 0;   // the round's task count: workers 1 .. active_-1 take part
  size_t pending_ = 0;  // the round's worker tasks still running
  std::vector<std::exception_ptr> errors_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // threads_[i - 1] is worker i
};

/// Runs modules[i](inputs[i]) for every i, all at once: each under a DeviceGuard for
/// cuda:devices[i], on the caller's current stream of that device (so the caller's work before
/// and after is ordered with it, as in torch), in the caller's grad mode and innermost
/// tide::Scope. Module 0 runs on the calling thread, the others on `threads`. Waits for all;
/// then the first failure (by index) is rethrown as the same tide::Error type with the message
/// "[DataParallel] replica i on cuda:d failed: <the original message>".
std::vector<Tensor> parallel_apply(const std::vector<Module*>& modules,
                                   const std::vector<Tensor>& inputs,
                                   const std::vector<int>& devices, ReplicaThreads& threads);

}  // namespace tide::nn::parallel
