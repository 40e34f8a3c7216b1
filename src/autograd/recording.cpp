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

void set_history(const Tensor& out, const std::shared_ptr<FunctionNode>& node, bool is_view) {
  if (!node || !out.defined() || !out.is_floating_point()) return;
  AutogradMeta& meta = materialize_meta(out);
  meta.grad_fn = node;
  meta.output_nr = 0;
  meta.is_view = meta.is_view || is_view;
  if (out.is_cuda()) node->stream = cuda::current_stream(out.device().index());
}

void check_inplace(const Tensor& self, bool operand_requires_grad, const char* op) {
  const AutogradMeta* meta = meta_of(self);
  TIDE_CHECK(!(meta && meta->requires_grad && !meta->grad_fn), "[", op,
             "] a leaf Variable that requires grad is being used in an in-place operation. Run "
             "the update under tide::NoGradGuard (as optimizers do), or modify a clone().");
  const bool involves_grad = operand_requires_grad || self.requires_grad();
  if (!involves_grad) return;
  // Part of a larger storage: a view, whose base's history tide cannot rewrite yet.
  const bool partial = self.storage_offset() != 0 || self.nbytes() != self.storage().nbytes() ||
                       !self.is_contiguous();
  TIDE_CHECK(!(meta && meta->is_view) && !partial, "[", op,
             "] in-place operation on a view of a tensor, with an operand that requires grad: "
             "tide does not rewrite the base tensor's history for this yet (torch's CopySlices), "
             "so the gradient would be lost. Write to a clone() of the view, or build the result "
             "with out-of-place ops (e.g. cat, where).");
}

}  // namespace tide::autograd
