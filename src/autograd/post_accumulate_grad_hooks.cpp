#include "autograd/post_accumulate_grad_hooks.h"

#include "autograd/autograd_meta.h"

namespace tide::autograd {

void PostAccumulateGradHooks::run(Tensor& leaf) const {
  for (auto& hook : snapshot()) hook(leaf);
}

}  // namespace tide::autograd

namespace tide {

RemovableHandle Tensor::register_post_accumulate_grad_hook(
    std::function<void(Tensor&)> hook) const {
  TIDE_CHECK(defined(), "[Tensor::register_post_accumulate_grad_hook] expected a defined tensor");
  TIDE_CHECK(static_cast<bool>(hook),
             "[Tensor::register_post_accumulate_grad_hook] expected a callable hook, found an "
             "empty std::function");
  TIDE_CHECK(requires_grad(), "[Tensor::register_post_accumulate_grad_hook] cannot register a "
             "hook on a tensor that doesn't require gradient; call requires_grad_() first");
  TIDE_CHECK(is_leaf(), "[Tensor::register_post_accumulate_grad_hook] post accumulate grad "
             "hooks cannot be registered on non-leaf tensors; register a hook on the leaf the "
             "gradient accumulates into");
  // Registration is rare; one lock keeps two threads from creating two lists.
  static std::mutex creation;
  std::shared_ptr<autograd::PostAccumulateGradHooks> hooks;
  {
    std::lock_guard<std::mutex> lock(creation);
    autograd::AutogradMeta& meta = autograd::materialize_meta(*this);
    if (!meta.post_accumulate_grad_hooks)
      meta.post_accumulate_grad_hooks = std::make_shared<autograd::PostAccumulateGradHooks>();
    hooks = meta.post_accumulate_grad_hooks;
  }
  return hooks->add(std::move(hook));
}

}  // namespace tide
