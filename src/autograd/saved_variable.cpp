#include "autograd/saved_variable.h"

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
  data_ = t.detach();
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
  return data_;
}

void SavedVariable::release() {
  data_ = Tensor();
  released_ = true;
}

}  // namespace tide::autograd
