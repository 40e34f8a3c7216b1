#pragma once
// The gradient hooks of one tensor (Tensor::register_hook) and its retain_grad.
//
// Note [Tensor hooks]: as torch 1.13, a tensor's hooks are pre-hooks of the node that receives
// its gradient: the grad_fn's output slot for a non-leaf (Node::tensor_hooks), the leaf's own
// list (AutogradMeta::hooks) that its AccumulateGrad reads, so that a hook registered before
// any forward op (when no accumulator exists yet) is kept. The engine runs them on a node's
// incoming gradient just before the node runs, in registration order; a hook that returns a
// defined tensor replaces the gradient. retain_grad is one more hook that runs after the
// user's, as torch's retains_grad hook, and accumulates into the non-leaf's grad(). The
// gradients autograd::grad captures are taken before the hooks run (torch 1.13's order), and a
// node that does not run (a captured leaf's accumulator) runs none.

#include <functional>
#include <memory>

#include "autograd/hook_list.h"
#include "tide/tensor.h"

namespace tide::autograd {

class TensorHooks : public HookList<std::function<Tensor(const Tensor&)>> {
 public:
  /// Makes run() accumulate the final gradient into `tensor`'s grad() (held weakly: the tensor
  /// owns the graph that owns these hooks).
  void retain_grad_of(const Tensor& tensor);
  bool retains_grad() const;
  /// `grad` after every hook, in registration order (undefined gradients see no hook).
  Tensor run(Tensor grad) const;

 private:
  std::weak_ptr<TensorImpl> retained_;  // guarded by mutex_
};

/// The hooks of the node slot that receives t's gradient (created on first use): t's grad_fn's
/// output slot, or the leaf's own list. Raises when t does not require grad.
std::shared_ptr<TensorHooks> hooks_for(const Tensor& t, const char* where);

}  // namespace tide::autograd
