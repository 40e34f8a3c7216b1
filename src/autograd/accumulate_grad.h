#pragma once
// AccumulateGrad: the node at each leaf that requires grad; adds incoming gradients to grad().

#include <mutex>

#include "autograd/node.h"

namespace tide::autograd {

class AccumulateGrad final : public Node {
 public:
  /// Holds the leaf (strongly; the leaf's metadata holds this node weakly, so no cycle).
  explicit AccumulateGrad(Tensor variable);
  std::vector<Tensor> apply(const Tensor& grad) override;
  /// The leaf's own hooks (Note [Tensor hooks]).
  std::shared_ptr<TensorHooks> tensor_hooks(uint32_t output_nr, bool create = false) override;
  const Tensor& variable() const { return variable_; }

 private:
  Tensor variable_;
  std::mutex mutex_;  // two threads' backward passes may reach one leaf (torch locks here too)
};

/// The leaf's accumulator, created on first use.
std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);

}  // namespace tide::autograd
