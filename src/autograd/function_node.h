#pragma once
// FunctionNode: a Node whose derivative is a function of the incoming gradient and the
// tensors saved at forward time.
//
// Note [Derivatives as lambdas]: torch generates one class per derivative from
// derivatives.yaml. tide writes each derivative as a capture-by-value lambda next to its op's
// recording (autograd/traced_*.cpp) — the formula reads like the yaml entry — and keeps the
// tensors it needs in `saved`, never in the capture: release_variables then frees exactly the
// saved tensors, and a node that saved nothing can run again after a backward without
// retain_graph, as in torch (AddBackward0 can; MulBackward0 raises).

#include <functional>
#include <utility>
#include <vector>

#include "autograd/node.h"
#include "autograd/saved_variable.h"
#include "tide/autograd.h"
#include "tide/macros.h"

namespace tide::autograd {

/// Saved tensors as a backward function reads them: saved[i] unpacks (and checks) the i-th.
class Saved {
 public:
  Saved(const std::vector<SavedVariable>& vars, const std::vector<Edge>& edges)
      : vars_(vars), edges_(edges) {}
  Tensor operator[](size_t i) const { return vars_[i].unpack(); }
  /// Whether input i's gradient goes anywhere: derivatives skip the work for the others
  /// (a matmul's constant operand), returning an undefined tensor.
  bool needs(size_t i) const { return edges_[i].valid(); }

 private:
  const std::vector<SavedVariable>& vars_;
  const std::vector<Edge>& edges_;
};

using BackwardFn = std::function<std::vector<Tensor>(const Tensor& grad, const Saved& saved)>;

class FunctionNode final : public Node {
 public:
  FunctionNode(const char* name, BackwardFn fn) : Node(name), fn_(std::move(fn)) {}

  std::vector<Tensor> apply(const Tensor& grad) override {
    std::vector<Tensor> out = fn_(grad, Saved(saved_, next_edges));
    if (TIDE_UNLIKELY(once_differentiable_) && GradMode::is_enabled()) {
      guard_second_backward(out, grad);
    }
    return out;
  }
  void release_variables() override {
    for (SavedVariable& v : saved_) v.release();
  }

  /// Saves an input of the forward op (at its current version).
  void save(const Tensor& t);
  /// Saves the forward op's output (this node's own output 0).
  void save_output(const Tensor& t);

  /// Marks a derivative that runs a kernel recording no graph (Note [create_graph] in
  /// autograd/engine.h): under create_graph its gradients lead to a node that raises torch's
  /// "the derivative for ... is not implemented" if a second backward reaches it.
  void set_once_differentiable() { once_differentiable_ = true; }

 private:
  void guard_second_backward(std::vector<Tensor>& out, const Tensor& grad);

  BackwardFn fn_;
  bool once_differentiable_ = false;
  std::vector<SavedVariable> saved_;
};

}  // namespace tide::autograd
