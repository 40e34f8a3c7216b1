#include "tide/anomaly_mode.h"

#include <atomic>

namespace tide::autograd {
namespace {
std::atomic<bool> anomaly_enabled{false};
}  // namespace

bool AnomalyMode::is_enabled() { return anomaly_enabled.load(std::memory_order_relaxed); }
void AnomalyMode::set_enabled(bool enabled) {
  anomaly_enabled.store(enabled, std::memory_order_relaxed);
}

}  // namespace tide::autograd
