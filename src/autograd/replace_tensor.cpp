#include "autograd/replace_tensor.h"

#include "autograd/autograd_meta.h"

namespace tide::autograd {

void replace_tensor(const Tensor& target, const Tensor& source) {
  TIDE_INTERNAL_ASSERT(target.defined() && source.defined());
  if (target.is_same(source)) return;
  TensorImpl* dst = target.impl();
  TensorImpl* src = source.impl();
  dst->storage = src->storage;
  dst->sizes = src->sizes;
  dst->strides = src->strides;
  dst->offset = src->offset;
  dst->dtype = src->dtype;
  dst->refresh();
  dst->autograd = std::move(src->autograd);
}

}  // namespace tide::autograd
