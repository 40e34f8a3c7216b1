#include "runtime/profiler_ranges.h"

#include <atomic>

namespace tide::runtime {
namespace {

std::atomic<RangePush> g_push{nullptr};
std::atomic<RangePop> g_pop{nullptr};

}  // namespace

void set_range_hooks(RangePush push, RangePop pop) {
  g_pop.store(pop, std::memory_order_release);
  g_push.store(push, std::memory_order_release);
}

RangePush range_push() { return g_push.load(std::memory_order_acquire); }

void range_pop() {
  if (RangePop pop = g_pop.load(std::memory_order_acquire)) pop();
}

}  // namespace tide::runtime
