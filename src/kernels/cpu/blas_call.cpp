#include "kernels/cpu/blas_call.h"

#include <cblas.h>

#include <atomic>
#include <mutex>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define TIDE_BLAS_CALL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TIDE_BLAS_CALL_TSAN 1
#endif
#endif

#ifdef TIDE_BLAS_CALL_TSAN
// ThreadSanitizer's annotations (its runtime defines them).
extern "C" void AnnotateIgnoreSyncBegin(const char* file, int line);
extern "C" void AnnotateIgnoreSyncEnd(const char* file, int line);
#endif

namespace tide::kernels {
namespace {

/// Taking and giving back the turn, unseen by ThreadSanitizer (Note [Serial OpenBLAS is not
/// reentrant]): the turns order nothing a program may rely on.
struct HiddenFromTsan {
#ifdef TIDE_BLAS_CALL_TSAN
  HiddenFromTsan() { AnnotateIgnoreSyncBegin(__FILE__, __LINE__); }
  ~HiddenFromTsan() { AnnotateIgnoreSyncEnd(__FILE__, __LINE__); }
#else
  HiddenFromTsan() {}   // user-provided (not = default): a scope guard, not an unused variable
  ~HiddenFromTsan() {}  // NOLINT(modernize-use-equals-default)
#endif
  HiddenFromTsan(const HiddenFromTsan&) = delete;
  HiddenFromTsan& operator=(const HiddenFromTsan&) = delete;
};

std::mutex g_turn;  // held for the whole of a serialized BLAS call
std::atomic<int> g_waiting{0};
std::atomic<int> g_forced{-1};  // -1: as the library reports; 0 or 1: a test's choice
std::atomic<bool> g_has_hook{false};
std::function<void()> g_hook;  // published by g_has_hook (release/acquire)

bool library_is_sequential() {
  static const bool sequential = openblas_get_parallel() == 0;
  return sequential;
}

void take_turn() {
  HiddenFromTsan hidden;
  if (g_turn.try_lock()) return;
  g_waiting.fetch_add(1);
  g_turn.lock();
  g_waiting.fetch_sub(1);
}

void give_back_turn() {
  HiddenFromTsan hidden;
  g_turn.unlock();
}

}  // namespace

bool blas_calls_serialized() {
  const int forced = g_forced.load(std::memory_order_relaxed);
  return forced < 0 ? library_is_sequential() : forced == 1;
}

BlasCall::BlasCall() : serialized_(blas_calls_serialized()) {
  if (serialized_) take_turn();
  if (g_has_hook.load(std::memory_order_acquire)) {
    try {
      g_hook();
    } catch (...) {
      if (serialized_) give_back_turn();  // no destructor runs for a constructor that throws
      throw;
    }
  }
}

BlasCall::~BlasCall() {
  if (serialized_) give_back_turn();
}

void set_blas_calls_serialized_for_testing(std::optional<bool> serialized) {
  g_forced.store(serialized ? (*serialized ? 1 : 0) : -1, std::memory_order_relaxed);
}

void set_blas_call_hook_for_testing(std::function<void()> hook) {
  g_has_hook.store(false, std::memory_order_release);
  const bool has = static_cast<bool>(hook);
  g_hook = std::move(hook);
  g_has_hook.store(has, std::memory_order_release);
}

int blas_calls_waiting_for_testing() { return g_waiting.load(); }

}  // namespace tide::kernels
