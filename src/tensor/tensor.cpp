#include "tide/tensor.h"

#include "tensor/tensor_internal.h"
#include "tide/allocator.h"

namespace tide {

void TensorImpl::refresh() {
  // A backstop for Note [Size overflow]: entry points check with their own names first.
  int64_t n = 0;
  if (TIDE_UNLIKELY(detail::numel_overflows(sizes, n))) detail::throw_numel_overflow(sizes, "Tensor");
  numel = n;
  contiguous = true;
  if (n == 0) return;  // an empty tensor is contiguous whatever its strides, as torch
  int64_t expected = 1;
  for (int64_t d = sizes.size() - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) {
      contiguous = false;
      break;
    }
    expected *= sizes[d];
  }
}

Tensor::Tensor(Storage storage, Dtype dtype, DimVector sizes, DimVector strides, int64_t offset)
    : impl_(std::make_shared<TensorImpl>()) {
  impl_->storage = std::move(storage);
  impl_->dtype = dtype;
  impl_->sizes = std::move(sizes);
  impl_->strides = std::move(strides);
  impl_->offset = offset;
  impl_->refresh();
}

Device Tensor::device() const { return impl_->storage.device(); }

int64_t Tensor::size(int64_t dim) const {
  return impl_->sizes[detail::wrap_dim(dim, this->dim(), "Tensor::size")];
}

int64_t Tensor::stride(int64_t dim) const {
  return impl_->strides[detail::wrap_dim(dim, this->dim(), "Tensor::stride")];
}

bool Tensor::is_pinned() const { return impl_->storage.pinned(); }

int Tensor::get_device() const {
  Device d = device();
  return d.is_cpu() ? -1 : d.index();
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.str(); }

namespace detail {

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* where) {
  int64_t n = ndim == 0 ? 1 : ndim;  // a 0-dim tensor accepts dim 0 and -1, as torch
  TIDE_CHECK(dim >= -n && dim < n, "[", where, "] Dimension out of range (expected to be in range of [",
             -n, ", ", n - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

DimVector contiguous_strides(const DimVector& sizes) {
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (int64_t d = sizes.size() - 1; d >= 0; --d) {
    strides[d] = s;
    // Wraps instead of overflowing: only a tensor with a zero size (and so no elements, whose
    // strides are never used to address) gets here with sizes whose product overflows.
    (void)__builtin_mul_overflow(s, std::max<int64_t>(sizes[d], 1), &s);
  }
  return strides;
}

std::string shape_str(const DimVector& sizes) {
  std::string s = "(";
  for (int64_t i = 0; i < sizes.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(sizes[i]);
  }
  if (sizes.size() == 1) s += ",";
  return s + ")";
}

}  // namespace detail
}  // namespace tide
