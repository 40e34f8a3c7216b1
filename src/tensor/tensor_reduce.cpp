// Tensor methods for reductions, softmax and index_select: thin forwards to the free ops
// (src/ops/reduce.cpp, softmax.cpp, shape.cpp), so both spellings share one implementation.

#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {

Tensor Tensor::sum(std::optional<Dtype> dtype) const { return tide::sum(*this, dtype); }
Tensor Tensor::sum(int64_t dim, bool keepdim, std::optional<Dtype> dtype) const {
  return tide::sum(*this, dim, keepdim, dtype);
}
Tensor Tensor::sum(std::vector<int64_t> dims, bool keepdim, std::optional<Dtype> dtype) const {
  return tide::sum(*this, std::move(dims), keepdim, dtype);
}

Tensor Tensor::mean(std::optional<Dtype> dtype) const { return tide::mean(*this, dtype); }
Tensor Tensor::mean(int64_t dim, bool keepdim, std::optional<Dtype> dtype) const {
  return tide::mean(*this, dim, keepdim, dtype);
}
Tensor Tensor::mean(std::vector<int64_t> dims, bool keepdim, std::optional<Dtype> dtype) const {
  return tide::mean(*this, std::move(dims), keepdim, dtype);
}

Tensor Tensor::max() const { return tide::max(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return tide::max(*this, dim, keepdim);
}
Tensor Tensor::min() const { return tide::min(*this); }
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  return tide::min(*this, dim, keepdim);
}
Tensor Tensor::argmax() const { return tide::argmax(*this); }
Tensor Tensor::argmax(int64_t dim, bool keepdim) const { return tide::argmax(*this, dim, keepdim); }
Tensor Tensor::argmin() const { return tide::argmin(*this); }
Tensor Tensor::argmin(int64_t dim, bool keepdim) const { return tide::argmin(*this, dim, keepdim); }

Tensor Tensor::softmax(int64_t dim) const { return tide::softmax(*this, dim); }
Tensor Tensor::log_softmax(int64_t dim) const { return tide::log_softmax(*this, dim); }

Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return tide::index_select(*this, dim, index);
}

}  // namespace tide
