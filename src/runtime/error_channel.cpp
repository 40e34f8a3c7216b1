#include "runtime/error_channel.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "runtime/backtrace.h"
#include "runtime/op_ring.h"
#include "tide/error.h"

namespace tide::runtime {
namespace {

struct ErrorSlot {
  std::atomic<bool> pending{false};
  std::mutex mutex;
  std::optional<KernelFailure> failure;
};

// Sized once before any backend work exists, never resized (readers need no lock).
std::unique_ptr<ErrorSlot[]> g_slots;
int g_slot_count = 0;

thread_local ExecutingTask* t_executing = nullptr;

ErrorSlot* slot(int device) {
  return device >= 0 && device < g_slot_count ? &g_slots[device] : nullptr;
}

}  // namespace

void init_error_channel(int device_count) {
  TIDE_INTERNAL_ASSERT(g_slots == nullptr, "the error channel was initialized twice");
  g_slots = std::make_unique<ErrorSlot[]>(static_cast<size_t>(device_count));
  g_slot_count = device_count;
}

void report_kernel_error(KernelFailure failure) {
  ErrorSlot* s = slot(failure.device);
  TIDE_INTERNAL_ASSERT(s != nullptr, "kernel failure reported for device ", failure.device);
  std::lock_guard<std::mutex> lock(s->mutex);
  if (s->failure) return;
  s->failure = std::move(failure);
  s->pending.store(true, std::memory_order_release);
}

bool has_pending_kernel_error(int device) {
  ErrorSlot* s = slot(device);
  return s && s->pending.load(std::memory_order_acquire);
}

void raise_pending_kernel_error(int device) {
  ErrorSlot* s = slot(device);
  if (!s || !s->pending.load(std::memory_order_acquire)) return;
  std::optional<KernelFailure> failure;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    failure.swap(s->failure);
    s->pending.store(false, std::memory_order_relaxed);
  }
  if (failure) throw KernelError(kernel_error_message(*failure));
}

std::string kernel_error_message(const KernelFailure& f) {
  const std::string where =
      f.info.scope ? detail::concat("enqueued in scope '", f.info.scope, "'")
                   : std::string("enqueued outside any tide::Scope");
  const std::string op =
      f.info.op ? detail::concat("'", f.info.op, "'")
                : detail::concat("(unknown: more than ", OpRing::kCapacity,
                                 " ops were enqueued on the stream after it)");
  std::string message = detail::concat(
      "[cuda] kernel error in op ", op, " (sequence number ", f.seq, " on stream ",
      f.stream_id, " of cuda:", f.device, ", ", where, "): ", f.message,
      ". It ran asynchronously and is raised at the first synchronizing call after it; set "
      "CUDA_LAUNCH_BLOCKING=1 to raise it at the op itself. The device remains usable.");
  // Symbolized here, lazily: only an error that is raised pays for it.
  if (f.enqueued_at && f.enqueued_at->size > 0) {
    message += "\nenqueued at:\n";
    message += symbolize_backtrace(*f.enqueued_at);
  } else if (!async_backtrace_enabled()) {
    message += " Set TIDE_ASYNC_BACKTRACE=1 to see the native backtrace of where it was "
               "enqueued.";
  }
  return message;
}

ExecutingTaskScope::ExecutingTaskScope(ExecutingTask* task) : previous_(t_executing) {
  t_executing = task;
}

ExecutingTaskScope::~ExecutingTaskScope() { t_executing = previous_; }

const ExecutingTask* executing_task() { return t_executing; }

void record_kernel_error(const std::string& message) {
  ExecutingTask* task = t_executing;
  if (task == nullptr) throw KernelError(message);
  if (task->failed) return;
  task->failed = true;
  report_kernel_error(KernelFailure{task->device, task->stream_id, task->seq, task->info, message,
                                    task->enqueued_at});
}

void attach_enqueue_backtrace(std::shared_ptr<const RawBacktrace> backtrace) {
  if (ExecutingTask* task = t_executing) task->enqueued_at = std::move(backtrace);
}

}  // namespace tide::runtime
