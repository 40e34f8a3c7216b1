#pragma once
// Anomaly detection for backward (torch.autograd.set_detect_anomaly / detect_anomaly).
//
// While it is on, the engine checks each node's gradients for NaN and raises naming the node,
// so the forward op that made it ("Function 'DivBackward0' returned nan values in its 1th
// output."), and when a node's backward raises it first prints which node (forward op) it
// was, then lets the error through unchanged. Off (the default) the engine pays one relaxed
// load per backward. The NaN checks read every gradient back to the host: a debugging aid, as
// in torch.

namespace tide::autograd {

/// Process-wide, as torch's.
struct AnomalyMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// RAII: anomaly detection on while it lives, the previous setting after (torch's
/// DetectAnomalyGuard).
class DetectAnomalyGuard {
 public:
  DetectAnomalyGuard() : previous_(AnomalyMode::is_enabled()) { AnomalyMode::set_enabled(true); }
  ~DetectAnomalyGuard() { AnomalyMode::set_enabled(previous_); }
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;

 private:
  bool previous_;
};

}  // namespace tide::autograd
