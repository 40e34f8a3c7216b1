#pragma once
// The history of views and of their bases written in place (torch's CopySlices and view replay).
//
// Note [Views and in-place ops]: a view v of a base b (the tensor, never itself a view, whose
// storage v shows) shares b's data, so an in-place op on v changes b too, and b's gradient must
// flow through that op. Every view op links v to b (TensorImpl::view_base, set by make_view in
// src/tensor/views.cpp), views of plain tensors too, so that this works whether or not anything
// required grad when the view was made. As torch:
// - An in-place op on v whose node is `fn`: fn is wrapped in a CopySlices node that becomes b's
//   grad_fn — its backward takes b's gradient, hands the slice v covers to fn, writes fn's
//   result for v's old value back into that slice, and passes fn's other gradients on — and v's
//   grad_fn becomes an AsStridedBackward0 of b's new history. b need not have required grad:
//   `zeros(4).narrow(0, 1, 2).copy_(x)` gives the zeros a CopySlices history.
// - Other views of b learn of a write (to b or to another view) through the version counter
//   (Note [Version counters]): each view remembers the version at which its grad_fn was set, or
//   at which it was made (TensorImpl::view_version), and grad_fn_of() regenerates a stale one as
//   an AsStridedBackward0 of b's current history ("view replay"), when b requires grad. The op
//   hook fires for a plain view whose base has metadata (autograd/hooks.h), so that it replays.
// - A view requires grad when it does itself or when its base does — also a view made before
//   its base's requires_grad_(): until a write bumps the version, such a view has no grad_fn and
//   no gradient flows from it into b (it is a leaf without accumulator), and an in-place op on it
//   raises "a view of a leaf Variable", as torch.
// - A view made with grad mode off takes part in no rebase (torch's CreationMeta::NO_GRAD_MODE,
//   inherited by views of it), as torch: an in-place op on it with grad mode on and something
//   requiring grad raises, and so does its replay (when it is next used with grad mode on, or
//   its grad_fn() read) once its base requires grad and was written since the view was made.
// - detach() and a reshape that copies are not views: they get their own history, if any, and
//   a detach() shares only b's storage and version counter.
// Replay mutates the view's metadata from const accessors (grad_fn(), is_leaf()) without a
// lock, as the rest of the metadata (Note [Autograd metadata]): one tensor must not be used by
// two threads while it is being modified. The base must be contiguous, so that a view's geometry
// (sizes, strides, offset) maps onto the contiguous gradient of the base.

#include <memory>

#include "autograd/function_node.h"
#include "autograd/node.h"

namespace tide::autograd {

/// t's base when t is a view, else an undefined tensor.
inline Tensor base_of(const Tensor& t) {
  return t.defined() && t.impl()->view_base ? Tensor(t.impl()->view_base) : Tensor();
}

/// t's grad_fn, regenerated first when t is a view whose base changed since it was set (view
/// replay; see the Note above). Null for leaves and plain tensors.
std::shared_ptr<Node> grad_fn_of(const Tensor& t);

/// Makes `node` (the in-place op just run on `self`) self's history: self's grad_fn, or, when
/// self is a view, its base's CopySlices (see the Note above).
void rebase_history(const Tensor& self, const std::shared_ptr<FunctionNode>& node);

/// Records `view`, made from `input` by a view op, with `node` as its grad_fn.
void set_view_history(const Tensor& view, const Tensor& input,
                      const std::shared_ptr<FunctionNode>& node);

/// Raises torch's errors for an in-place op on the view `self` when it needs history (self or an
/// operand requires grad): a view made with grad mode off, a view of a leaf that requires grad.
void check_inplace_on_view(const Tensor& self, const char* op);

}  // namespace tide::autograd
