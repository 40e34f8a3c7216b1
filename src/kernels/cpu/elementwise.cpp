#include "kernels/cpu/elementwise.h"

#include <algorithm>

namespace tide::kernels {

ElementwiseIter ElementwiseIter::build(std::initializer_list<const Tensor*> operands) {
  ElementwiseIter it;
  it.num_operands = static_cast<int>(operands.size());
  TIDE_INTERNAL_ASSERT(it.num_operands >= 1 && it.num_operands <= kMaxOperands);
  const Tensor& out = **operands.begin();
  const int64_t ndim = out.dim();
  it.numel = out.numel();

  // Collect non-size-1 dims, strides in bytes.
  int k = 0;
  for (const Tensor* t : operands) {
    TIDE_INTERNAL_ASSERT(t->dim() == ndim, "operands must be broadcast to the output's shape");
    it.data[k] = static_cast<char*>(t->raw_data());
    it.strides[k] = DimVector();
    ++k;
  }
  // The dims from the outermost to the innermost of the output's memory: their own order for a
  // contiguous output, else by decreasing stride, so that a channels-last output (Note [Memory
  // formats] in tensor/memory_format.cpp) is walked along its channels and coalesces as a
  // contiguous one does.
  DimVector order;
  for (int64_t d = 0; d < ndim; ++d) {
    if (out.shape()[d] != 1) order.push_back(d);
  }
  if (!out.is_contiguous()) {
    const DimVector& os = out.stride_vector();
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t x, int64_t y) { return os[x] > os[y]; });
  }
  for (int64_t d : order) {
    int64_t size = out.shape()[d];
    bool merge = !it.shape.empty();
    k = 0;
    for (const Tensor* t : operands) {
      int64_t st = t->stride_vector()[d] * static_cast<int64_t>(t->element_size());
      if (merge && it.strides[k].back() != st * size) merge = false;
      ++k;
    }
    if (merge) {
      it.shape[it.shape.size() - 1] *= size;
      k = 0;
      for (const Tensor* t : operands) {
        it.strides[k][it.strides[k].size() - 1] =
            t->stride_vector()[d] * static_cast<int64_t>(t->element_size());
        ++k;
      }
    } else {
      it.shape.push_back(size);
      k = 0;
      for (const Tensor* t : operands) {
        it.strides[k].push_back(t->stride_vector()[d] * static_cast<int64_t>(t->element_size()));
        ++k;
      }
    }
  }
  if (it.numel == 0) it.shape = DimVector{0};
  if (it.numel == 0) {
    for (int j = 0; j < it.num_operands; ++j) it.strides[j] = DimVector{0};
  }
  return it;
}

}  // namespace tide::kernels
