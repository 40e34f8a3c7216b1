#include "autograd/recording.h"

#include "autograd/autograd_meta.h"
#include "tide/cuda/stream.h"

namespace tide::autograd {

bool any_requires_grad(std::initializer_list<const Tensor*> inputs) {
  for (const Tensor* t : inputs) {
    if (t && t->defined() && t->requires_grad()) return true;
  }
  return false;
}

std::shared_ptr<FunctionNode> make_node(const char* name, const std::vector<const Tensor*>& inputs,
                                        BackwardFn fn) {
  bool any = false;
  for (const Tensor* t : inputs) any = any || (t && t->defined() && t->requires_grad());
  if (!any) return nullptr;
  std::shared_ptr<FunctionNode> node(new FunctionNode(name, std::move(fn)), delete_node);
  node->next_edges.reserve(inputs.size());
  node->input_meta.reserve(inputs.size());
  for (const Tensor* t : inputs) {
    if (!t || !t->defined()) {
      node->next_edges.emplace_back();
      node->input_meta.emplace_back();
      continue;
    }
    node->next_edges.push_back(gradient_edge(*t));
    node->input_meta.push_back(InputMeta{t->shape(), t->dtype(), t->device()});
  }
  return node;
}

Tensor sum_to(const Tensor& g, const DimVector& shape) {
  if (g.shape() == shape) return g;
  const int64_t lead = g.dim() - shape.size();
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < g.dim(); ++i) {
    if (i < lead || (shape[i - lead] == 1 && g.size(i) != 1)) dims.push_back(i);
  }
  Tensor r = dims.empty() ? g : g.sum(dims, /*keepdim=*/true);
  return r.reshape(shape.vec());
}

void set_history(const Tensor& out, const std::shared_ptr<FunctionNode>& node) {
  if (!node || !out.defined() || !out.is_floating_point()) return;
  AutogradMeta& meta = materialize_meta(out);
  meta.grad_fn = node;
  meta.output_nr = 0;
  if (out.is_cuda()) node->stream = cuda::current_stream(out.device().index());
}

void check_inplace(const Tensor& self, bool operand_requires_grad, const char* op) {
  const AutogradMeta* meta = meta_of(self);
  TIDE_CHECK(!(meta && meta->requires_grad && !meta->grad_fn), "[", op,
             "] a leaf Variable that requires grad is being used in an in-place operation. Run "
             "the update under tide::NoGradGuard (as optimizers do), or modify a clone().");
  if (meta && meta->base.defined()) {
    const AutogradMeta* base = meta_of(meta->base);
    TIDE_CHECK(
        !(base && base->requires_grad && !base->grad_fn), "[", op,
        "] a view of a leaf Variable that requires grad is being used in an in-place "
        "operation. Modify a clone() of the leaf, or run the update under tide::NoGradGuard.");
    return;  // Note [Views and in-place ops]
  }
  if (!operand_requires_grad && !self.requires_grad()) return;
  // Part of a larger storage, but not a view autograd recorded: a view of a plain tensor.
  const bool partial = self.storage_offset() != 0 || self.nbytes() != self.storage().nbytes() ||
                       !self.is_contiguous();
  TIDE_CHECK(!partial, "[", op,
             "] in-place write of an operand that requires grad into a view of a tensor that does "
             "not: tide records views only of tensors that require grad, so the base tensor's "
             "history cannot be rewritten and the gradient would be lost. Call requires_grad_() "
             "on the base, or build the result with out-of-place ops (e.g. cat, where).");
  // The whole storage, but other tensors show it too (a full view, the base of a view, a
  // detach()): only this one would get the history, and the gradient through the others would
  // be lost silently — refuse, as for a partial view.
  TIDE_CHECK(self.requires_grad() || !self.storage().aliased(), "[", op,
             "] in-place write of an operand that requires grad into a tensor that does not, "
             "while other tensors show the same memory (a view of it, or the tensor it is a view "
             "or detach() of): tide records views only of tensors that require grad, so their "
             "gradient would be lost. Call requires_grad_() on the base before taking views, or "
             "build the result with out-of-place ops (e.g. cat, where).");
}

}  // namespace tide::autograd
