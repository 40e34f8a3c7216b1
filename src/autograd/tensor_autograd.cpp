// Tensor's autograd methods (declared in tide/tensor.h).

#include "autograd/autograd_meta.h"
#include "autograd/engine.h"
#include "autograd/node.h"
#include "autograd/view_history.h"
#include "tide/autograd.h"
#include "tide/tensor.h"

namespace tide {

using autograd::AutogradMeta;
using autograd::meta_of;

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  TIDE_CHECK(defined(), "[Tensor::requires_grad_] expected a defined tensor");
  AutogradMeta* meta = meta_of(*this);
  if (autograd::grad_fn_of(*this)) {
    TIDE_CHECK(requires_grad,
               "[Tensor::requires_grad_] you can only change requires_grad flags of "
               "leaf variables. If you want to use a computed variable in a subgraph that doesn't "
               "require differentiation use var_no_grad = var.detach().");
    return *this;  // a non-leaf already requires grad
  }
  if (!requires_grad) {
    if (meta) meta->requires_grad = false;
    return *this;
  }
  TIDE_CHECK(is_floating_point(),
             "[Tensor::requires_grad_] only Tensors of floating point and "
             "complex dtype can require gradients; this tensor is ",
             name(dtype()), ": convert it first (.to(tide::kFloat32))");
  autograd::materialize_meta(*this).requires_grad = true;
  return *this;
}

Tensor& Tensor::requires_grad_(bool requires_grad) {
  static_cast<const Tensor*>(this)->requires_grad_(requires_grad);
  return *this;
}

bool Tensor::requires_grad() const {
  const AutogradMeta* meta = meta_of(*this);
  if (meta && (meta->requires_grad || meta->grad_fn)) return true;
  // A view requires grad when its base does (Note [Views and in-place ops]).
  const TensorImpl* base = impl_ ? impl_->view_base.get() : nullptr;
  const AutogradMeta* base_meta = base ? base->autograd.get() : nullptr;
  return base_meta && (base_meta->requires_grad || base_meta->grad_fn);
}

Tensor Tensor::grad() const {
  const AutogradMeta* meta = meta_of(*this);
  return meta ? meta->grad : Tensor();
}

Tensor& Tensor::mutable_grad() const {
  TIDE_CHECK(defined(), "[Tensor::mutable_grad] expected a defined tensor");
  return autograd::materialize_meta(*this).grad;
}

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph,
                      const std::vector<Tensor>& inputs) const {
  TIDE_CHECK(defined(), "[Tensor::backward] called on an undefined tensor");
  if (!inputs.empty()) {
    autograd::backward({*this}, {gradient}, retain_graph, inputs, create_graph);
    return;
  }
  autograd::BackwardOptions options;
  options.retain_graph = retain_graph.value_or(create_graph);  // torch's default
  options.create_graph = create_graph;
  autograd::run_backward({*this}, {gradient}, options, nullptr, "Tensor::backward");
}


bool Tensor::is_leaf() const { return autograd::grad_fn_of(*this) == nullptr; }

Tensor Tensor::detach() const {
  TIDE_CHECK(defined(), "[Tensor::detach] expected a defined tensor");
  // Not a view (torch): no link to *this, so a history it gets is its own. The storage, and so
  // the version counter, is shared.
  return Tensor(impl_->storage, impl_->dtype, impl_->sizes, impl_->strides, impl_->offset);
}

const Tensor& Tensor::set_data(const Tensor& new_data) const {
  TIDE_CHECK(defined() && new_data.defined(), "[Tensor::set_data] expected defined tensors, got ",
             defined() ? "an undefined new_data" : "an undefined self");
  TIDE_CHECK(!requires_grad() || new_data.is_floating_point(),
             "[Tensor::set_data] this tensor "
             "requires grad, so its data must be floating point, but new_data is ",
             name(new_data.dtype()));
  TensorImpl* src = new_data.impl();
  impl_->storage = src->storage;
  impl_->sizes = src->sizes;
  impl_->strides = src->strides;
  impl_->offset = src->offset;
  impl_->dtype = src->dtype;
  impl_->refresh();
  impl_->view_base.reset();  // no longer shows its base's storage
  return *this;
}

Tensor& Tensor::set_data(const Tensor& new_data) {
  static_cast<const Tensor*>(this)->set_data(new_data);
  return *this;
}

std::shared_ptr<autograd::Node> Tensor::grad_fn() const { return autograd::grad_fn_of(*this); }

uint32_t Tensor::_version() const { return impl_->storage.version(); }

}  // namespace tide
