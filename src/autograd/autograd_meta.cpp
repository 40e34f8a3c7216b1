#include "autograd/autograd_meta.h"

#include "autograd/node.h"

namespace tide::autograd {

void AutogradMetaDeleter::operator()(AutogradMeta* meta) const { delete meta; }

AutogradMeta& materialize_meta(const Tensor& t) {
  TensorImpl* impl = t.impl();
  if (!impl->autograd) impl->autograd.reset(new AutogradMeta());
  return *impl->autograd;
}

}  // namespace tide::autograd
