// Tensor's linear-algebra methods: thin forwards to the free functions in ops.h.

#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {

Tensor Tensor::matmul(const Tensor& other) const { return tide::matmul(*this, other); }
Tensor Tensor::mm(const Tensor& other) const { return tide::mm(*this, other); }
Tensor Tensor::bmm(const Tensor& other) const { return tide::bmm(*this, other); }
Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, Scalar beta, Scalar alpha) const {
  return tide::addmm(*this, mat1, mat2, beta, alpha);
}

}  // namespace tide
