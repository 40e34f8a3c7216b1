#pragma once
// AutogradMeta: what autograd knows about one tensor.
//
// Note [Autograd metadata]: TensorImpl holds a pointer to this, null for every tensor autograd
// never saw (all tensors of a program that uses no requires_grad). An op's front end checks
// only that pointer for each operand (autograd/hooks.h): plain tensors pay one load and
// compare per operand, no allocation, no thread-local read. A tensor gets metadata when the
// user calls requires_grad_ (a leaf), when a recorded op produces it (grad_fn set), or when it
// is the target of an in-place op with an operand that requires grad.
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

struct AutogradMeta {
  /// Set by requires_grad_ on leaves; non-leaves require grad through grad_fn.
  bool requires_grad = false;
  /// For views: the tensor (not itself a view) whose storage they show, and the storage
  /// version when grad_fn was last set (Note [Views and in-place ops] in autograd/view_history.h).
  Tensor base;
  uint32_t view_version = 0;
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  /// The leaf's AccumulateGrad node, alive while some graph refers to it.
  std::weak_ptr<Node> grad_accumulator;
  Tensor grad;
};

/// t's metadata, or null.
inline AutogradMeta* meta_of(const Tensor& t) {
  return t.defined() ? t.impl()->autograd.get() : nullptr;
}
/// t's metadata, created when missing.
AutogradMeta& materialize_meta(const Tensor& t);

}  // namespace tide::autograd
