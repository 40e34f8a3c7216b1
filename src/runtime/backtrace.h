#pragma once
// Native backtraces of enqueue sites, for async kernel errors (TIDE_ASYNC_BACKTRACE=1).

#include <array>
#include <atomic>
#include <memory>
#include <string>

#include "runtime/backend.h"

namespace tide::runtime {

/// Note [Async error backtraces]: with TIDE_ASYNC_BACKTRACE=1 (read once, when the backends
/// start; registry.h) runtime::launch records where each task was enqueued: glibc's
/// backtrace() writes the raw return addresses into a fixed array, no symbol lookup (about
/// 4 us and two allocations per launch, against ~140 ns for a launch without it). The array travels with the task (with_enqueue_backtrace
/// wraps it); when the task starts, the wrapper attaches it to the ExecutingTask, so a
/// failure recorded by the task (error_channel.h) carries it into its KernelFailure. Only
/// when that failure is raised does kernel_error_message symbolize it, through libdw
/// (elfutils): function names from the symbol tables, demangled, and file:line where the
/// binary has DWARF line tables (builds with -g). Without the variable, a launch pays one
/// predictable branch on a relaxed load and nothing is captured.
///
/// runtime::memcpy_async captures nothing: the backend's copy has no failure path that
/// reports a KernelError (a plain memcpy on simulated GPUs), so a capture would have
/// nothing to attach to.

/// Return addresses of one call stack, innermost first.
struct RawBacktrace {
  static constexpr int kMaxFrames = 48;
  std::array<void*, kMaxFrames> frames{};
  int size = 0;
};

/// Set by set_async_backtrace_enabled; read through async_backtrace_enabled.
extern std::atomic<bool> g_async_backtrace;

/// Whether launches capture their enqueue backtrace (TIDE_ASYNC_BACKTRACE=1 or the testing
/// hook). The launch path's only cost when off.
inline bool async_backtrace_enabled() {
  return g_async_backtrace.load(std::memory_order_relaxed);
}
/// Turns capture on or off for launches from now on (the registry at start, testing hooks).
void set_async_backtrace_enabled(bool enabled);

/// The caller's call stack, starting at the caller of capture_backtrace, minus `skip` more.
RawBacktrace capture_backtrace(int skip = 0);
/// Captures the caller's backtrace and returns `task` wrapped to attach it to the
/// ExecutingTask when it runs (Note [Async error backtraces]).
Task with_enqueue_backtrace(Task task);

/// One line per frame, each "    #i function at file:line (module)", innermost first; parts
/// that cannot be resolved are left out, an unknown function reads as its address. Empty
/// when the backtrace is empty.
std::string symbolize_backtrace(const RawBacktrace& backtrace);
/// Whether symbolize_backtrace can name functions in this build (false: it prints addresses).
bool backtrace_symbolization_available();

}  // namespace tide::runtime
