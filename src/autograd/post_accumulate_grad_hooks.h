#pragma once
// The post-accumulate-grad hooks of one leaf (Tensor::register_post_accumulate_grad_hook).

#include <functional>

#include "autograd/hook_list.h"
#include "tide/tensor.h"

namespace tide::autograd {

class PostAccumulateGradHooks : public HookList<std::function<void(Tensor&)>> {
 public:
  /// Calls every hook with `leaf`, in registration order.
  void run(Tensor& leaf) const;
};

}  // namespace tide::autograd
