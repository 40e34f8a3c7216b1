#include "autograd/tensor_hooks.h"

#include "autograd/accumulate_grad.h"
#include "autograd/autograd_meta.h"
#include "autograd/node.h"
#include "autograd/view_history.h"
#include "tide/autograd.h"

namespace tide::autograd {

void TensorHooks::retain_grad_of(const Tensor& tensor) {
  std::lock_guard<std::mutex> lock(mutex_);
  retained_ = tensor.impl_ptr();
}

bool TensorHooks::retains_grad() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !retained_.expired();
}

Tensor TensorHooks::run(Tensor grad) const {
  if (!grad.defined()) return grad;
  std::shared_ptr<TensorImpl> retained;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    retained = retained_.lock();
  }
  for (auto& hook : snapshot()) {
    Tensor replaced = hook(grad);
    if (replaced.defined()) grad = std::move(replaced);
  }
  if (retained) {
    // torch's retains_grad hook: a copy the first time (grad() never aliases the engine's
    // buffer), a new sum after (a grad() the user holds keeps its value).
    Tensor& slot = materialize_meta(Tensor(retained)).grad;
    slot = slot.defined() ? slot + grad : grad.clone();
  }
  return grad;
}

std::shared_ptr<TensorHooks> Node::tensor_hooks(uint32_t output_nr, bool create) {
  if (output_nr < hooks_.size() && hooks_[output_nr]) return hooks_[output_nr];
  if (!create) return nullptr;
  if (hooks_.size() <= output_nr) hooks_.resize(output_nr + 1);
  hooks_[output_nr] = std::make_shared<TensorHooks>();
  return hooks_[output_nr];
}

std::shared_ptr<TensorHooks> AccumulateGrad::tensor_hooks(uint32_t, bool create) {
  AutogradMeta& meta = materialize_meta(variable());
  if (!meta.hooks && create) meta.hooks = std::make_shared<TensorHooks>();
  return meta.hooks;
}

std::shared_ptr<TensorHooks> hooks_for(const Tensor& t, const char* where) {
  TIDE_CHECK(t.defined(), "[", where, "] expected a defined tensor");
  TIDE_CHECK(t.requires_grad(), "[", where,
             "] cannot register a hook on a tensor that doesn't require gradient; call "
             "requires_grad_() first");
  // Registration is rare; one lock keeps two threads from creating two lists.
  static std::mutex creation;
  std::lock_guard<std::mutex> lock(creation);
  if (std::shared_ptr<Node> fn = grad_fn_of(t)) return fn->tensor_hooks(meta_of(t)->output_nr, true);
  AutogradMeta& meta = materialize_meta(t);
  if (!meta.hooks) meta.hooks = std::make_shared<TensorHooks>();
  return meta.hooks;
}

}  // namespace tide::autograd

namespace tide::autograd {

RemovableHandle register_hook(const Tensor& t, std::function<Tensor(const Tensor&)> hook) {
  TIDE_CHECK(static_cast<bool>(hook), "[autograd::register_hook] expected a callable hook, found "
             "an empty std::function");
  return hooks_for(t, "autograd::register_hook")->add(std::move(hook));
}

void retain_grad(const Tensor& t) {
  TIDE_CHECK(t.defined(), "[autograd::retain_grad] expected a defined tensor");
  TIDE_CHECK(t.requires_grad(), "[autograd::retain_grad] can't retain_grad on Tensor that has "
             "requires_grad=False; call requires_grad_() on the leaves it is computed from");
  if (t.is_leaf()) return;  // a leaf's grad() is kept anyway (torch: a no-op)
  hooks_for(t, "autograd::retain_grad")->retain_grad_of(t);
}

bool retains_grad(const Tensor& t) {
  if (!t.defined() || t.is_leaf()) return false;
  auto hooks = grad_fn_of(t)->tensor_hooks(meta_of(t)->output_nr);
  return hooks && hooks->retains_grad();
}

}  // namespace tide::autograd
