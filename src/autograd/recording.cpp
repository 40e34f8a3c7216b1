#include "autograd/recording.h"

#include "autograd/autograd_meta.h"
#include "autograd/view_history.h"
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

Tensor original_self(const Tensor& self) {
  // Grad mode is on while an op records; the clone records CloneBackward0 only when self
  // requires grad.
  return self.clone();
}

bool is_expandable_to(const DimVector& from, const DimVector& to) {
  if (from.size() > to.size()) return false;
  for (int64_t i = 1; i <= from.size(); ++i) {
    const int64_t f = from[from.size() - i], t = to[to.size() - i];
    if (f != t && f != 1) return false;
  }
  return true;
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
  // torch's check_inplace: only an op that gives self history can break a rule.
  const bool self_requires_grad = self.requires_grad();
  if (!operand_requires_grad && !self_requires_grad) return;
  if (self.impl()->view_base) check_inplace_on_view(self, op);  // Note [Views and in-place ops]
  TIDE_CHECK(!(self_requires_grad && self.is_leaf()), "[", op,
             "] a leaf Variable that requires grad is being used in an in-place operation. Run "
             "the update under tide::NoGradGuard (as optimizers do), or modify a clone().");
}

}  // namespace tide::autograd
