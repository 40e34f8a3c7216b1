#include "autograd/function_node.h"

#include "autograd/autograd_meta.h"
#include "tide/cuda/stream.h"

namespace tide::autograd {
namespace {

/// Stands for the second derivative of a once-differentiable node: raises when reached.
class NotTwiceDifferentiable final : public Node {
 public:
  explicit NotTwiceDifferentiable(const char* first) : Node("NotImplemented"), first_(first) {}
  std::vector<Tensor> apply(const Tensor&) override {
    throw Error(detail::concat(
        "[autograd] the derivative for '", first_,
        "' is not implemented: a second backward (create_graph=True) reached the gradient it "
        "computed, and tide computes that gradient with a kernel that records no graph; "
        "differentiate that op once only, or write it with differentiable ops"));
  }

 private:
  const char* first_;
};

}  // namespace

void FunctionNode::guard_second_backward(std::vector<Tensor>& out, const Tensor& grad) {
  // The true second derivative flows to the incoming gradient and to the forward inputs (via
  // the saved tensors): the error node stands between the gradients and all of them.
  std::shared_ptr<NotTwiceDifferentiable> err(new NotTwiceDifferentiable(name()), delete_node);
  if (grad.requires_grad()) {
    err->next_edges.push_back(gradient_edge(grad));
    err->input_meta.push_back(InputMeta{grad.shape(), grad.dtype(), grad.device()});
  }
  for (size_t i = 0; i < next_edges.size(); ++i) {
    if (!next_edges[i].valid()) continue;
    err->next_edges.push_back(next_edges[i]);
    err->input_meta.push_back(input_meta[i]);
  }
  if (err->next_edges.empty()) return;
  if (grad.is_cuda()) err->stream = cuda::current_stream(grad.device().index());
  for (Tensor& t : out) {
    if (!t.defined() || !t.is_floating_point()) continue;
    Tensor alias = t.detach();  // t may be the incoming gradient itself: leave its history
    AutogradMeta& meta = materialize_meta(alias);
    meta.grad_fn = err;
    meta.output_nr = 0;
    t = std::move(alias);
  }
}

void FunctionNode::save(const Tensor& t) {
  const AutogradMeta* meta = meta_of(t);
  const bool has_fn = meta && meta->grad_fn;
  saved_.emplace_back(t, has_fn ? meta->grad_fn->name() : nullptr, has_fn ? meta->output_nr : 0);
}

void FunctionNode::save_output(const Tensor& t) {
  saved_.emplace_back(t, weak_from_this(), name(), 0);
}

}  // namespace tide::autograd
