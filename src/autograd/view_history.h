#pragma once
// The history of views written in place (torch's CopySlices and view replay).
//
// Note [Views and in-place ops]: a view v of a base b (the non-view tensor whose storage v
// shows) shares b's data, so an in-place op on v changes b too, and b's gradient must flow
// through that op. As torch: the op's node `fn` is wrapped in a CopySlices node that becomes b's
// grad_fn — its backward takes b's gradient, hands the slice v covers to fn, writes fn's
// result for v's old value back into that slice, and passes fn's other gradients on — and v's
// grad_fn becomes an AsStridedBackward0 of b's new history. Other views of b learn of the
// write through the version counter (Note [Version counters]): each view remembers the
// version at which its grad_fn was set, and gradient_edge() regenerates a stale one from b's
// current history ("view replay"). Only views recorded by autograd (of a tensor that required
// grad) know their base; a write of a grad-requiring operand into a view of a plain tensor is
// refused (Note [In-place ops]). The base must be contiguous, so that a view's geometry
// (sizes, strides, offset) maps onto the contiguous gradient of the base.

#include <memory>

#include "autograd/function_node.h"
#include "autograd/node.h"

namespace tide::autograd {

/// Makes `node` (the in-place op just run on `self`) self's history: self's grad_fn, or, when
/// self is a view, its base's CopySlices (see the Note above).
void rebase_history(const Tensor& self, const std::shared_ptr<FunctionNode>& node);

/// Records `view` as a view of `input`'s base, with `node` as its grad_fn.
void set_view_history(const Tensor& view, const Tensor& input,
                      const std::shared_ptr<FunctionNode>& node);

/// For a view whose base changed since its grad_fn was set: an AsStridedBackward0 of the base's
/// current history (view replay). Called by gradient_edge().
void refresh_view_grad_fn(const Tensor& view);

}  // namespace tide::autograd
