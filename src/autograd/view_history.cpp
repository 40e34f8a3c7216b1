#include "autograd/view_history.h"

#include "autograd/autograd_meta.h"
#include "autograd/recording.h"
#include "tide/factories.h"

namespace tide::autograd {
namespace {

/// Where a view lies in its base: sizes, strides and the offset from the base's first element.
struct ViewGeometry {
  DimVector sizes, strides;
  int64_t offset = 0;

  static ViewGeometry of(const Tensor& view, const Tensor& base) {
    return {view.shape(), view.stride_vector(), view.storage_offset() - base.storage_offset()};
  }
  /// The same region of `t`, a contiguous tensor with the base's shape.
  Tensor in(const Tensor& t) const {
    return Tensor(t.storage(), t.dtype(), sizes, strides, t.storage_offset() + offset);
  }
};

InputMeta meta_for(const Tensor& t) { return InputMeta{t.shape(), t.dtype(), t.device()}; }

void check_base(const Tensor& base, const char* what) {
  TIDE_CHECK(base.is_contiguous(), "[autograd] ", what,
             " a view whose base is not contiguous "
             "(shape ",
             base.sizes().size(),
             "-D, strides not row-major); tide maps a view's "
             "gradient onto its base's only for contiguous bases: clone() the base first");
}

/// The gradient of a view, placed in zeros shaped like its base.
class AsStridedBackward final : public Node {
 public:
  AsStridedBackward(const Tensor& base, ViewGeometry geometry)
      : Node("AsStridedBackward0"), base_sizes_(base.sizes()), geometry_(std::move(geometry)) {
    next_edges.push_back(gradient_edge(base));
    input_meta.push_back(meta_for(base));
    if (base.is_cuda()) stream = cuda::current_stream(base.device().index());
  }
  std::vector<Tensor> apply(const Tensor& grad) override {
    Tensor out = zeros(base_sizes_, tide::device(grad.device()).dtype(grad.dtype()));
    geometry_.in(out).copy_(grad);
    return {out};
  }

 private:
  std::vector<int64_t> base_sizes_;
  ViewGeometry geometry_;
};

/// The base's history after an in-place op on one of its views (torch's CopySlices).
class CopySlices final : public Node {
 public:
  CopySlices(const Tensor& base, ViewGeometry geometry, std::shared_ptr<FunctionNode> fn)
      : Node("CopySlices"), geometry_(std::move(geometry)), fn_(std::move(fn)) {
    next_edges.push_back(gradient_edge(base));
    input_meta.push_back(meta_for(base));
    for (size_t i = 1; i < fn_->next_edges.size(); ++i) {
      next_edges.push_back(fn_->next_edges[i]);
      input_meta.push_back(fn_->input_meta[i]);
    }
    if (base.is_cuda()) stream = cuda::current_stream(base.device().index());
  }
  std::vector<Tensor> apply(const Tensor& grad) override {
    const Tensor result = grad.contiguous().clone();
    Tensor slice = geometry_.in(result);
    std::vector<Tensor> res = fn_->apply(slice.clone());
    if (res[0].defined()) {
      slice.copy_(res[0]);
    } else {
      slice.zero_();
    }
    res[0] = result;
    return res;
  }
  void release_variables() override { fn_->release_variables(); }

 private:
  ViewGeometry geometry_;
  std::shared_ptr<FunctionNode> fn_;
};

std::shared_ptr<Node> make_as_strided(const Tensor& view, const Tensor& base) {
  check_base(base, "a gradient through");
  return std::shared_ptr<Node>(new AsStridedBackward(base, ViewGeometry::of(view, base)),
                               delete_node);
}

bool requires_grad(const TensorImpl& base) {
  const AutogradMeta* meta = base.autograd.get();
  return meta && (meta->requires_grad || meta->grad_fn);
}

constexpr const char* kNoGradViewHint =
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).";

/// View replay (Note [Views and in-place ops]): torch's VariableHooks::grad_fn.
void refresh_view_grad_fn(const Tensor& view) {
  TensorImpl* impl = view.impl();
  const uint32_t version = view.storage().version();
  if (impl->view_version == version) return;
  AutogradMeta* meta = impl->autograd.get();
  if (!(meta && meta->grad_fn) && !requires_grad(*impl->view_base)) return;
  TIDE_CHECK(!impl->view_made_without_grad,
             "[autograd] A view was created in no_grad mode and its base or another view of its "
             "base has been modified inplace with grad mode enabled.",
             kNoGradViewHint);
  AutogradMeta& m = materialize_meta(view);
  m.grad_fn = make_as_strided(view, Tensor(impl->view_base));
  m.output_nr = 0;
  impl->view_version = version;
}

}  // namespace

std::shared_ptr<Node> grad_fn_of(const Tensor& t) {
  if (!t.defined()) return nullptr;
  if (t.impl()->view_base) refresh_view_grad_fn(t);
  const AutogradMeta* meta = meta_of(t);
  return meta ? meta->grad_fn : nullptr;
}

void set_view_history(const Tensor& view, const Tensor& input,
                      const std::shared_ptr<FunctionNode>& node) {
  TensorImpl* impl = view.impl();
  // The front end made the view with grad mode off (untraced); the caller had it on.
  impl->view_made_without_grad = input.impl()->view_base && input.impl()->view_made_without_grad;
  set_history(view, node);
  impl->view_version = view.storage().version();
}

void rebase_history(const Tensor& self, const std::shared_ptr<FunctionNode>& node) {
  if (!node || !self.is_floating_point()) return;  // as set_history
  TensorImpl* impl = self.impl();
  if (!impl->view_base) {
    set_history(self, node);
    return;
  }
  const Tensor base(impl->view_base);
  check_base(base, "an in-place op on");
  std::shared_ptr<Node> copy_slices(new CopySlices(base, ViewGeometry::of(self, base), node),
                                    delete_node);
  AutogradMeta& base_meta = materialize_meta(base);
  base_meta.grad_fn = std::move(copy_slices);
  base_meta.output_nr = 0;
  AutogradMeta& meta = materialize_meta(self);
  meta.grad_fn = make_as_strided(self, base);
  meta.output_nr = 0;
  impl->view_version = self.storage().version();
}

void check_inplace_on_view(const Tensor& self, const char* op) {
  TIDE_CHECK(!self.impl()->view_made_without_grad, "[", op,
             "] A view was created in no_grad mode and is being modified inplace with grad mode "
             "enabled.",
             kNoGradViewHint);
  const AutogradMeta* base = self.impl()->view_base->autograd.get();
  TIDE_CHECK(
      !(self.requires_grad() && !(base && base->grad_fn)), "[", op,
      "] a view of a leaf Variable that requires grad is being used in an in-place "
      "operation. Modify a clone() of the leaf, or run the update under tide::NoGradGuard.");
}

}  // namespace tide::autograd
