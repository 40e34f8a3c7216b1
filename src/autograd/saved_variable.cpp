#include "autograd/saved_variable.h"

#include "autograd/autograd_meta.h"
#include "autograd/node.h"
#include "autograd/view_history.h"
#include "tide/autograd.h"
#include "tide/error.h"

namespace tide::autograd {
namespace {

/// torch's Tensor.type() spelling: "tide.FloatTensor", "tide.cuda.DoubleTensor".
std::string legacy_type_name(const Tensor& t) {
  const char* kind = "Tensor";
  switch (t.dtype()) {
    case kBool:
      kind = "BoolTensor";
      break;
    case kUInt8:
      kind = "ByteTensor";
      break;
    case kInt32:
      kind = "IntTensor";
      break;
    case kInt64:
      kind = "LongTensor";
      break;
    case kFloat16:
      kind = "HalfTensor";
      break;
    case kBFloat16:
      kind = "BFloat16Tensor";
      break;
    case kFloat32:
      kind = "FloatTensor";
      break;
    case kFloat64:
      kind = "DoubleTensor";
      break;
  }
  return std::string(t.is_cuda() ? "tide.cuda." : "tide.") + kind;
}

std::string sizes_str(const Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

}  // namespace

SavedVariable::SavedVariable(const Tensor& t, const char* grad_fn_name, uint32_t output_nr)
    : output_nr_(output_nr), grad_fn_name_(grad_fn_name), defined_(t.defined()) {
  if (!defined_) return;
  version_ = t.storage().version();
  const AutogradMeta* meta = meta_of(t);
  if (meta && meta->requires_grad && !meta->grad_fn && !t.impl()->view_base) {
    data_ = t;  // a leaf: its identity is its accumulator
    return;
  }
  data_ = t.detach();
  if (meta) input_grad_fn_ = grad_fn_of(t);  // a view's, replayed when stale
}

SavedVariable::SavedVariable(const Tensor& t, std::weak_ptr<Node> grad_fn,
                             const char* grad_fn_name, uint32_t output_nr)
    : output_nr_(output_nr),
      grad_fn_name_(grad_fn_name),
      defined_(t.defined()),
      is_output_(true) {
  if (!defined_) return;
  data_ = t.detach();
  output_grad_fn_ = std::move(grad_fn);
  version_ = t.storage().version();
}

Tensor SavedVariable::unpack() const {
  TIDE_CHECK(!released_,
             "[autograd] Trying to backward through the graph a second time (or directly access "
             "saved tensors after they have already been freed). Saved intermediate values of the "
             "graph are freed when you call .backward() or autograd.grad(). Specify "
             "retain_graph=True if you need to backward through the graph a second time or if you "
             "need to access saved tensors after calling backward.");
  if (!defined_) return {};
  const uint32_t now = data_.storage().version();
  if (now != version_) {
    std::string which =
        grad_fn_name_ ? detail::concat(", which is output ", output_nr_, " of ", grad_fn_name_, ",")
                      : std::string();
    throw Error(
        detail::concat("[autograd] one of the variables needed for gradient computation has been "
                       "modified by an inplace operation: [",
                       legacy_type_name(data_), " ", sizes_str(data_), "]", which,
                       " is at version ", now, "; expected version ", version_,
                       " instead. Hint: the in-place op ran after the forward op that "
                       "saved this tensor; clone() the tensor before modifying it, or use the "
                       "out-of-place op."));
  }
  if (!GradMode::is_enabled()) return data_;
  // create_graph: the history, re-attached to a fresh alias (Note [Saved outputs and double
  // backward]). A saved output's node is alive: it is the one unpacking, or a custom
  // function's node whose backward is running.
  std::shared_ptr<Node> fn = is_output_ ? output_grad_fn_.lock() : input_grad_fn_;
  if (!fn) return data_;
  Tensor out = data_.detach();
  AutogradMeta& meta = materialize_meta(out);
  meta.grad_fn = std::move(fn);
  meta.output_nr = output_nr_;
  return out;
}

void SavedVariable::release() {
  data_ = Tensor();
  input_grad_fn_.reset();
  output_grad_fn_.reset();
  released_ = true;
}

}  // namespace tide::autograd
