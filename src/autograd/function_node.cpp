#include "autograd/function_node.h"

#include "autograd/autograd_meta.h"

namespace tide::autograd {

void FunctionNode::save(const Tensor& t) {
  const AutogradMeta* meta = meta_of(t);
  const bool has_fn = meta && meta->grad_fn;
  saved_.emplace_back(t, has_fn ? meta->grad_fn->name() : nullptr, has_fn ? meta->output_nr : 0);
}

void FunctionNode::save_output(const Tensor& t) { saved_.emplace_back(t, name(), 0); }

}  // namespace tide::autograd
