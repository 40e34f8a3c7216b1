#pragma once
// replace_tensor: make every handle to one tensor see another tensor, history included.
//
// Note [Replica parameters]: torch's DataParallel replicates a module by assigning to each
// replica's attributes the differentiable copies of the parameters (`_replicate_for_data_parallel`
// then `setattr(replica, name, copy)`): non-leaf tensors whose grad_fn leads back to the
// original parameters, so the replicas' gradients reach them. A C++ module holds its parameters
// through handles (the registry slot, and members such as Linear::weight) that share one
// TensorImpl; assigning a new tensor to one handle would leave the others behind. So the
// TensorImpl itself takes over the copy: its data and geometry (as set_data) and its autograd
// history (grad_fn, or none). Handles to the replica's parameter then are the copy, for every
// purpose, exactly as torch's replica attribute is. Backward functions that saved the parameter
// keep their own detached alias (SavedVariable; Note [Saved outputs and double backward]), so
// replacing it later does not change them.

#include "tide/tensor.h"

namespace tide::autograd {

/// Makes `target` (every handle to it) the tensor `source` is: source's storage, geometry and
/// dtype, and source's autograd metadata, moved (source keeps its data but loses its history;
/// a source without metadata leaves target plain). target's own history and grad are dropped.
/// Internal: nn::DataParallel's replicas (Note [Replica parameters]).
void replace_tensor(const Tensor& target, const Tensor& source);

}  // namespace tide::autograd
