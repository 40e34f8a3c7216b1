#pragma once
// Helpers the traced ops (autograd/traced_*.cpp) record their nodes with.
//
// Note [In-place ops]: as torch, an in-place op on a leaf that requires grad raises (in grad
// mode); on any other tensor it runs, bumps the storage's version (so backward functions that
// saved the old value raise instead of computing a wrong gradient) and, when self or an
// operand requires grad, makes the op's node self's new grad_fn, with self's previous history
// as one of its inputs (torch's rebase_history); on a view, the base's history is rewritten
// and the other views replay it (Note [Views and in-place ops] in autograd/view_history.h),
// whether or not anything required grad when the views were made.

#include <initializer_list>
#include <memory>
#include <utility>

#include "autograd/function_node.h"
#include "tide/autograd.h"

namespace tide::autograd {

/// Whether any defined tensor among `inputs` requires grad.
bool any_requires_grad(std::initializer_list<const Tensor*> inputs);

/// A node for an op whose differentiable inputs are `inputs` (undefined ones allowed, they get
/// no gradient), or null when none requires grad. The derivative returns one gradient per input.
std::shared_ptr<FunctionNode> make_node(const char* name, const std::vector<const Tensor*>& inputs,
                                        BackwardFn fn);

/// Makes `out` the output of `node` (its grad_fn), and records the stream the forward op ran on.
/// Non-floating outputs stay plain: they are not differentiable (torch).
void set_history(const Tensor& out, const std::shared_ptr<FunctionNode>& node);

/// Raises torch's errors for an in-place op on `self` (Note [In-place ops]) before it runs.
void check_inplace(const Tensor& self, bool operand_requires_grad, const char* op);

/// What an in-place op saves of self before the write: a clone, recorded when self requires
/// grad so that a double backward reaches self's earlier history (torch's original_self).
Tensor original_self(const Tensor& self);

/// Whether a tensor of shape `from` broadcasts to `to` (torch's is_expandable_to).
bool is_expandable_to(const DimVector& from, const DimVector& to);

/// Sums `g` over the dims that broadcasting added to a tensor of `shape` (torch's sum_to).
Tensor sum_to(const Tensor& g, const DimVector& shape);

/// Runs `f` with grad mode off: the untraced front end, exactly as without autograd.
template <class F>
auto untraced(F&& f) {
  AutoGradMode off(false);
  return f();
}

/// One gradient per input, as a derivative returns them.
template <class... T>
std::vector<Tensor> grads(T&&... g) {
  return std::vector<Tensor>{std::forward<T>(g)...};
}

}  // namespace tide::autograd
