#pragma once
// Autograd's public controls: grad mode (NoGradGuard), autograd::grad and backward, tensor
// hooks. The Tensor side (requires_grad_, backward, grad, detach, set_data) is declared in
// tensor.h; custom functions in custom_function.h.

#include <functional>
#include <optional>
#include <vector>

#include "tide/removable_handle.h"
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
/// allow_unused: an input the outputs do not depend on gets an undefined gradient (else raises).
/// create_graph: the gradients carry a graph of their own, for double backward (a gradient
/// penalty, a Hessian-vector product); retain_graph then defaults to true, as torch.
std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs = {},
                         std::optional<bool> retain_graph = std::nullopt,
                         bool allow_unused = false, bool create_graph = false);

/// Accumulates the gradients of `tensors` (torch.autograd.backward) into the leaves' grad(),
/// or only into `inputs`' when given (leaves or non-leaves). grad_tensors: one per tensor
/// (undefined: ones for a one-element tensor). create_graph: the accumulated gradients carry a
/// graph (retain_graph then defaults to true), as torch.
void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt,
              const std::vector<Tensor>& inputs = {}, bool create_graph = false);

/// Calls `hook(grad)` with t's gradient each time a backward computes it, before the gradient
/// is used (torch's Tensor.register_hook): a defined result replaces the gradient. Hooks run in
/// registration order on the backward's thread (Note [Tensor hooks] in
/// src/autograd/tensor_hooks.h). Raises for a tensor that does not require grad.
RemovableHandle register_hook(const Tensor& t, std::function<Tensor(const Tensor&)> hook);
/// Makes backward keep the non-leaf t's gradient in t.grad() (torch's Tensor.retain_grad; a
/// no-op for leaves). Raises for a tensor that does not require grad.
void retain_grad(const Tensor& t);
/// Whether retain_grad(t) was called on this non-leaf (false for leaves, as torch).
bool retains_grad(const Tensor& t);

}  // namespace autograd
}  // namespace tide
