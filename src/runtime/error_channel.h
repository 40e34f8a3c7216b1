#pragma once
// The async error channel: failures inside enqueued work, raised at the next synchronizing call.

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/backend.h"
#include "runtime/kernel_error_report.h"

namespace tide::runtime {

struct RawBacktrace;  // backtrace.h

/// A failure inside one enqueued task.
struct KernelFailure {
  int device = -1;
  uint64_t stream_id = 0;
  uint64_t seq = 0;
  LaunchInfo info{nullptr, nullptr};  // {nullptr, nullptr}: no longer in the stream's OpRing
  std::string message;
  /// Where the op was enqueued, when TIDE_ASYNC_BACKTRACE=1 (Note [Async error backtraces]).
  std::shared_ptr<const RawBacktrace> enqueued_at;
};

/// Note [Async error channel]: each device has one first-error slot. A backend worker that
/// sees a task fail stores the failure there if the slot is empty (later failures are dropped:
/// the first one is the cause, as CUDA's sticky error), and keeps running the stream. Every
/// synchronizing call on the device, from any thread, then calls raise_pending_kernel_error,
/// which takes the failure out of the slot and throws it as tide::KernelError, so exactly one
/// caller sees it and the device is usable afterwards. The check is one relaxed atomic load
/// when nothing failed.

/// Sizes the per-device slots; called once by the registry when the cuda backend starts.
void init_error_channel(int device_count);
/// Stores `failure` in its device's slot unless one is already pending.
void report_kernel_error(KernelFailure failure);
/// Throws the pending failure of `device` as tide::KernelError (and clears it), if any.
void raise_pending_kernel_error(int device);
bool has_pending_kernel_error(int device);
/// The message a KernelError for `failure` carries.
std::string kernel_error_message(const KernelFailure& failure);

/// The task a backend worker is running on this thread; kernels report failures against it.
struct ExecutingTask {
  int device;
  uint64_t stream_id;
  uint64_t seq;
  LaunchInfo info;
  bool failed = false;
  /// Set by attach_enqueue_backtrace when the task was launched with a backtrace.
  std::shared_ptr<const RawBacktrace> enqueued_at = nullptr;
};

/// Marks `task` as the one running on this thread for the scope's lifetime (backends only).
class ExecutingTaskScope {
 public:
  explicit ExecutingTaskScope(ExecutingTask* task);
  ~ExecutingTaskScope();
  ExecutingTaskScope(const ExecutingTaskScope&) = delete;
  ExecutingTaskScope& operator=(const ExecutingTaskScope&) = delete;

 private:
  ExecutingTask* previous_;
};

/// The task running on this thread, or nullptr.
const ExecutingTask* executing_task();
/// For the wrapper of with_enqueue_backtrace (backtrace.h): gives the task running on this
/// thread the backtrace of its enqueue, so its failures carry it. No-op outside a task.
void attach_enqueue_backtrace(std::shared_ptr<const RawBacktrace> backtrace);

}  // namespace tide::runtime
