#include "runtime/fork_safety.h"

#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <mutex>

#include "tide/error.h"

namespace tide::runtime {

std::atomic<bool> g_bad_fork{false};

namespace {

std::once_flag g_watch_once;

// Runs in the child right after fork(): only async-signal-safe work (one atomic store).
void mark_child() { g_bad_fork.store(true, std::memory_order_relaxed); }

}  // namespace

void watch_forks() {
  std::call_once(g_watch_once, [] {
    const int rc = pthread_atfork(nullptr, nullptr, &mark_child);
    TIDE_CHECK(rc == 0, "[cuda] expected pthread_atfork to register tide's fork handler, found "
               "error ", rc, " (", rc == ENOMEM ? "ENOMEM" : "unexpected",
               "); free host memory and try again");
  });
}

void raise_bad_fork(const char* where) {
  throw Error(detail::concat(
      "[", where, "] cannot use cuda in a forked child process: cuda was initialized in the "
      "parent before fork; create worker processes before the first cuda use, or start them "
      "with spawn/exec. This process is a child fork()ed after its parent started the cuda "
      "runtime, and the parent's streams, contexts and caches do not exist in it (as torch's "
      "\"Cannot re-initialize CUDA in forked subprocess\"). cpu tensors keep working here."));
}

}  // namespace tide::runtime
