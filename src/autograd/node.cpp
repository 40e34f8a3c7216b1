#include "autograd/node.h"

#include <atomic>

#include "autograd/accumulate_grad.h"
#include "autograd/autograd_meta.h"

namespace tide::autograd {
namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}  // namespace

Node::Node(const char* name)
    : name_(name), sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* meta = meta_of(t);
  if (!meta) return {};
  if (meta->grad_fn) return {meta->grad_fn, meta->output_nr};
  if (meta->requires_grad) return {grad_accumulator(t), 0};
  return {};
}

}  // namespace tide::autograd
