// Tensor::index_select: a thin forward to the free op (src/ops/shape.cpp), so both spellings
// share one implementation. (The reductions' and softmax's methods come from the op table:
// generated_tensor_methods.cpp.)

#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {

Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return tide::index_select(*this, dim, index);
}

}  // namespace tide
