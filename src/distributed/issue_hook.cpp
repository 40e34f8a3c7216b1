#include "distributed/issue_hook.h"

#include <atomic>
#include <utility>

namespace tide::distributed::detail {
namespace {
std::atomic<bool> g_hook_set{false};
// Set only while no collective is issued (the hook's contract), so reading it unlocked after
// the flag is safe.
std::function<void(int64_t)>& hook() {
  static auto* h = new std::function<void(int64_t)>();
  return *h;
}
}  // namespace

void set_issue_hook_for_testing(std::function<void(int64_t seq)> h) {
  g_hook_set.store(false, std::memory_order_release);
  hook() = std::move(h);
  if (hook()) g_hook_set.store(true, std::memory_order_release);
}

void run_issue_hook(int64_t seq) {
  if (g_hook_set.load(std::memory_order_acquire)) hook()(seq);
}

}  // namespace tide::distributed::detail
