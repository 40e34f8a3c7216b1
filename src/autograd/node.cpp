#include "autograd/node.h"

#include <atomic>

#include "autograd/accumulate_grad.h"
#include "autograd/autograd_meta.h"
#include "autograd/view_history.h"

namespace tide::autograd {
namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}  // namespace

Node::Node(const char* name)
    : name_(name), sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

namespace {
/// Moves the nodes only `node` keeps alive onto `stack`, so they die there, not recursively.
void gather_unique_children(Node* node, std::vector<std::shared_ptr<Node>>& stack) {
  for (Edge& e : node->next_edges) {
    if (e.node.use_count() == 1) stack.push_back(std::move(e.node));
    e.node.reset();
  }
}
}  // namespace

void delete_node(Node* node) {
  std::vector<std::shared_ptr<Node>> stack;
  gather_unique_children(node, stack);
  delete node;
  while (!stack.empty()) {
    std::shared_ptr<Node> next = std::move(stack.back());
    stack.pop_back();
    gather_unique_children(next.get(), stack);
  }  // `next` is released here, its children already detached
}

Edge gradient_edge(const Tensor& t) {
  std::shared_ptr<Node> fn = grad_fn_of(t);  // Note [Views and in-place ops]: view replay
  AutogradMeta* meta = meta_of(t);
  if (!meta) return {};
  if (fn) return {std::move(fn), meta->output_nr};
  // A view that requires grad only through its base, before any write, has none (as torch).
  if (meta->requires_grad) return {grad_accumulator(t), 0};
  return {};
}

}  // namespace tide::autograd
