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

}  // namespace

void set_view_history(const Tensor& view, const Tensor& input,
                      const std::shared_ptr<FunctionNode>& node) {
  set_history(view, node);
  AutogradMeta* meta = meta_of(view);
  if (!node || !meta) return;
  const AutogradMeta* in = meta_of(input);
  meta->base = in && in->base.defined() ? in->base : input;
  meta->view_version = view.storage().version();
}

void rebase_history(const Tensor& self, const std::shared_ptr<FunctionNode>& node) {
  if (!node) return;
  AutogradMeta* meta = meta_of(self);
  if (!meta || !meta->base.defined()) {
    set_history(self, node);
    return;
  }
  const Tensor base = meta->base;
  check_base(base, "an in-place op on");
  std::shared_ptr<Node> copy_slices(new CopySlices(base, ViewGeometry::of(self, base), node),
                                    delete_node);
  AutogradMeta& base_meta = materialize_meta(base);
  base_meta.grad_fn = std::move(copy_slices);
  base_meta.output_nr = 0;
  meta->grad_fn = make_as_strided(self, base);
  meta->output_nr = 0;
  meta->view_version = self.storage().version();
}

void refresh_view_grad_fn(const Tensor& view) {
  AutogradMeta* meta = meta_of(view);
  if (!meta || !meta->base.defined() || meta->view_version == view.storage().version()) return;
  meta->grad_fn = make_as_strided(view, meta->base);
  meta->output_nr = 0;
  meta->view_version = view.storage().version();
}

}  // namespace tide::autograd
