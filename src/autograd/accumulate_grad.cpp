#include "autograd/accumulate_grad.h"

#include "autograd/autograd_meta.h"
#include "autograd/post_accumulate_grad_hooks.h"
#include "tide/autograd.h"
#include "tide/factories.h"

namespace tide::autograd {

AccumulateGrad::AccumulateGrad(Tensor variable)
    : Node("AccumulateGrad"), variable_(std::move(variable)) {
  // Leaves accumulate as soon as their gradient is complete (torch gives them the highest
  // sequence number for the same reason).
  set_sequence_nr(UINT64_MAX);
  if (variable_.is_cuda()) stream = cuda::current_stream(variable_.device().index());
}

std::vector<Tensor> AccumulateGrad::apply(const Tensor& grad) {
  std::lock_guard<std::mutex> lock(mutex_);
  AutogradMeta& meta = materialize_meta(variable_);
  Tensor& slot = meta.grad;
  if (GradMode::is_enabled()) {
    // create_graph (Note [create_graph] in autograd/engine.h): grad() becomes a recorded
    // function of the gradient, so a second backward can differentiate it, as torch: a copy
    // the first time, then the out-of-place sum (an in-place add would rewrite the history of
    // the grad() a user may hold).
    slot = slot.defined() ? slot + grad : grad.clone();
  } else if (!slot.defined()) {
    // Keep the incoming tensor when nothing else can see it (the engine's buffer was its only
    // handle and it owns its storage); otherwise copy, so that grad() never aliases a user's
    // gradient or another tensor (torch's rule). torch's layout contract too: grad() has the
    // leaf's strides (a channels_last weight gets a channels_last gradient, a contiguous input
    // a contiguous one, whatever layout the op's backward produced).
    const bool leaf_layout = grad.impl()->strides == variable_.impl()->strides;
    const bool stealable = grad.use_count() == 1 && grad.storage().use_count() == 1 &&
                           grad.is_contiguous(grad.suggest_memory_format()) &&
                           grad.storage_offset() == 0 && leaf_layout;
    if (stealable) {
      slot = grad;
    } else if (leaf_layout) {
      slot = grad.clone();
    } else {
      slot = empty_like(variable_);  // the leaf's strides when it is dense (Preserve)
      slot.copy_(grad);
    }
  } else if (slot.use_count() == 1) {
    slot.add_(grad);  // nobody else holds the old grad(): accumulate in place
  } else {
    slot = slot + grad;  // a user holds the old grad(): leave it as it was, as torch
  }
  // Still under the lock, as torch: a second thread's accumulation into this leaf waits until
  // the hooks have seen this one (DDP's hooks read grad() and must see it complete).
  if (const auto hooks = meta.post_accumulate_grad_hooks) {
    Tensor leaf = variable_;
    hooks->run(leaf);
  }
  return {};
}

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  // Threads recording ops on one shared parameter must all get the same accumulator.
  static std::mutex creation;
  std::lock_guard<std::mutex> lock(creation);
  AutogradMeta& meta = materialize_meta(leaf);
  if (auto existing = meta.grad_accumulator.lock()) {
    // Reused unless set_data moved the leaf to another device since it was made: its stream
    // must be one of the leaf's device.
    const bool on_leaf_device =
        leaf.is_cuda() ? existing->stream && existing->stream->device_index() == leaf.get_device()
                       : !existing->stream;
    if (on_leaf_device) return existing;
  }
  auto node = std::make_shared<AccumulateGrad>(leaf);
  meta.grad_accumulator = node;
  return node;
}

}  // namespace tide::autograd
