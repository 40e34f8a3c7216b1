#include "nn/parallel/parallel_apply.h"

#include <optional>
#include <string>

#include "tide/autograd.h"
#include "tide/cuda/device_guard.h"
#include "tide/cuda/stream.h"
#include "tide/cuda/stream_guard.h"
#include "tide/error.h"
#include "tide/scope.h"

namespace tide::nn::parallel {

ReplicaThreads::~ReplicaThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

std::vector<std::exception_ptr> ReplicaThreads::run(size_t n,
                                                    const std::function<void(size_t)>& task) {
  if (n == 0) return {};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // A new worker first looks at round_ after this lock is released, so it joins this round.
    while (threads_.size() + 1 < n) {
      const size_t index = threads_.size() + 1;
      threads_.emplace_back([this, index] { work(index); });
    }
    task_ = &task;
    active_ = n;
    pending_ = n - 1;
    errors_.assign(n, nullptr);
    ++round_;
  }
  wake_.notify_all();
  std::exception_ptr first;
  try {
    task(0);
  } catch (...) {
    first = std::current_exception();
  }
  // Always wait, even when task(0) failed: the workers use the caller's tensors and modules.
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  errors_[0] = first;
  task_ = nullptr;
  return std::move(errors_);
}

void ReplicaThreads::work(size_t index) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || round_ != seen; });
    if (stopping_) return;
    seen = round_;
    if (index >= active_) continue;  // this round has fewer replicas
    const std::function<void(size_t)>* task = task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*task)(index);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    errors_[index] = error;
    if (--pending_ == 0) done_.notify_all();
  }
}

namespace {

/// Rethrows `error` as the same kind of tide::Error, its message prefixed by `where`.
[[noreturn]] void rethrow_with_context(const std::exception_ptr& error, const std::string& where) {
  try {
    std::rethrow_exception(error);
  } catch (const OutOfMemoryError& e) {
    throw OutOfMemoryError(where + e.what());
  } catch (const KernelError& e) {
    throw KernelError(where + e.what());
  } catch (const InternalError& e) {
    throw InternalError(where + e.what());
  } catch (const std::exception& e) {
    throw Error(where + e.what());
  } catch (...) {
    throw Error(where + "an exception that is not a std::exception");
  }
}

}  // namespace

std::vector<Tensor> parallel_apply(const std::vector<Module*>& modules,
                                   const std::vector<Tensor>& inputs,
                                   const std::vector<int>& devices, ReplicaThreads& threads) {
  TIDE_INTERNAL_ASSERT(modules.size() == inputs.size() && modules.size() <= devices.size());
  const size_t n = modules.size();
  // What the replica threads inherit from the caller (each thread has its own): grad mode,
  // the innermost scope (the name outlives the replicas' work: the caller's Scope is open
  // until they finish, and a Scope name outlives what is enqueued under it), and the current
  // stream of each device, which the caller's copies to and from that device are ordered on.
  const bool grad_enabled = GradMode::is_enabled();
  const char* scope = Scope::current();
  std::vector<cuda::Stream> streams;
  streams.reserve(n);
  for (size_t i = 0; i < n; ++i) streams.push_back(cuda::current_stream(devices[i]));

  std::vector<Tensor> outputs(n);
  const std::function<void(size_t)> task = [&](size_t i) {
    if (i == 0) {  // the caller's own thread: its grad mode, scope and streams already
      cuda::DeviceGuard device(devices[0]);
      outputs[0] = (*modules[0])(inputs[0]);
      return;
    }
    cuda::StreamGuard stream(streams[i]);  // also makes the device current
    AutoGradMode grad_mode(grad_enabled);
    std::optional<Scope> named;
    if (scope) named.emplace(scope);
    outputs[i] = (*modules[i])(inputs[i]);
  };
  const std::vector<std::exception_ptr> errors = threads.run(n, task);
  for (size_t i = 0; i < n; ++i) {
    if (errors[i]) {
      rethrow_with_context(errors[i], detail::concat("[DataParallel] replica ", i, " on cuda:",
                                                     devices[i], " failed: "));
    }
  }
  return outputs;
}

}  // namespace tide::nn::parallel
