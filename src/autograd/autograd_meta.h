#pragma once
// AutogradMeta: what autograd knows about one tensor.
//
// Note [Autograd metadata]: TensorImpl holds a pointer to this, null for every tensor autograd
// never saw (all tensors of a program that uses no requires_grad). An op's front end checks
// only that pointer for each operand (autograd/hooks.h), and TensorImpl::view_base next to it:
// plain tensors pay two loads and compares per operand (three for a view: its base's pointer),
// no allocation, no thread-local read. A tensor gets metadata when the user calls requires_grad_
// (a leaf), when a recorded op produces it (grad_fn set), when it is the target of an in-place
// op with an operand that requires grad, or when a view replays its base's history (Note [Views
// and in-place ops] in autograd/view_history.h; what a view knows of its base lives in
// TensorImpl, so that views of plain tensors know it too).
//
// Note [Version counters]: torch keeps a version counter shared by a tensor, its views and its
// detach()es. Views and detach() share the storage here, so the counter lives in StorageImpl
// (no allocation per tensor): every in-place front end bumps it, and a SavedVariable compares
// the version it saw at forward time with the one at backward time. set_data gives the tensor
// its new storage's counter (torch keeps the old one; nothing observable depends on it here).

#include <memory>

#include "tide/tensor.h"

namespace tide::autograd {

class Node;
class PostAccumulateGradHooks;
class TensorHooks;

struct AutogradMeta {
  /// Set by requires_grad_ on leaves; non-leaves require grad through grad_fn, views also
  /// through their base (Note [Views and in-place ops]).
  bool requires_grad = false;
  /// For a view, stale once its storage's version differs from TensorImpl::view_version: read
  /// it through autograd::grad_fn_of, which replays the base's history.
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  /// The leaf's AccumulateGrad node, alive while some graph refers to it.
  std::weak_ptr<Node> grad_accumulator;
  Tensor grad;
  /// Hooks called after each accumulation into grad (leaves only); null until one registers.
  std::shared_ptr<PostAccumulateGradHooks> post_accumulate_grad_hooks;
  /// A leaf's register_hook hooks, run by its AccumulateGrad (Note [Tensor hooks]); null until
  /// one registers. A non-leaf's live on its grad_fn.
  std::shared_ptr<TensorHooks> hooks;
};

/// t's metadata, or null.
inline AutogradMeta* meta_of(const Tensor& t) {
  return t.defined() ? t.impl()->autograd.get() : nullptr;
}
/// t's metadata, created when missing.
AutogradMeta& materialize_meta(const Tensor& t);

}  // namespace tide::autograd
