#pragma once
// Autograd's public controls: grad mode (NoGradGuard), autograd::grad. The Tensor side
// (requires_grad_, backward, grad, detach, set_data) is declared in tensor.h.

#include <vector>

#include "tide/tensor.h"

namespace tide {

/// Whether ops record the graph on this thread (torch's GradMode; on by default).
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// RAII: sets this thread's grad mode and restores the previous one (torch's AutoGradMode).
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : previous_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(previous_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool previous_;
};

/// RAII: no op records a graph on this thread while it lives (torch::NoGradGuard).
class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() : AutoGradMode(false) {}
};

namespace autograd {

/// The gradients of `outputs` w.r.t. `inputs` (torch.autograd.grad), without touching any
/// leaf's grad(). grad_outputs: one per output (undefined: ones for a scalar output).
std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs = {}, bool retain_graph = false);

}  // namespace autograd
}  // namespace tide
