// Shape ops that move data: cat, stack, index_select; and the free forms of chunk and split
// (views, implemented as Tensor methods in src/tensor/views.cpp).

#include "autograd/hooks.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "tide/ops.h"

namespace tide {
namespace {

/// torch keeps accepting 1-D empty tensors of any other shape in cat and skips them.
bool legacy_empty(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

}  // namespace

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  if (TIDE_UNLIKELY(autograd::recording_list(tensors))) return autograd::traced::cat(tensors, dim);
  TIDE_CHECK(!tensors.empty(), "[cat] expected a non-empty list of Tensors");
  const Tensor* ref = nullptr;
  Dtype dtype = kBool;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    detail::check_defined(t, "cat", "every tensor in the list");
    detail::same_device({{"tensors", &tensors[0]}, {"tensors", &t}}, "cat");
    TIDE_CHECK(t.dim() > 0, "[cat] zero-dimensional tensor (at position ", i,
               ") cannot be concatenated; unsqueeze it to one dimension or use stack");
    dtype = i == 0 ? t.dtype() : promote_types(dtype, t.dtype());
    if (!ref && !legacy_empty(t)) ref = &t;
  }
  const Device device = tensors[0].device();
  if (!ref) return detail::make_empty(DimVector{0}, dtype, device);  // all inputs were (0,)
  const int64_t d = detail::wrap_dim(dim, ref->dim(), "cat");
  DimVector shape = ref->shape();
  shape[d] = 0;
  std::vector<Tensor> inputs;
  inputs.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (legacy_empty(t)) continue;
    TIDE_CHECK(t.dim() == ref->dim(), "[cat] Tensors must have same number of dimensions: got ",
               ref->dim(), " and ", t.dim(), " (tensor number ", i, " in the list has shape ",
               detail::shape_str(t.shape()), ")");
    for (int64_t k = 0; k < t.dim(); ++k) {
      TIDE_CHECK(k == d || t.shape()[k] == ref->shape()[k],
                 "[cat] Sizes of tensors must match except in dimension ", d, ". Expected size ",
                 ref->shape()[k], " but got size ", t.shape()[k], " for tensor number ", i,
                 " in the list.");
    }
    // Expanded inputs can be long enough that the sum overflows (Note [Size overflow]).
    const bool overflow = __builtin_add_overflow(shape[d], t.shape()[d], &shape[d]);
    TIDE_CHECK(!overflow, "[cat] the size of the result in dimension ", d, " overflows int64 at "
               "tensor number ", i, " in the list; concatenate fewer or shorter tensors");
    inputs.push_back(t);
  }
  Tensor out = detail::make_empty(shape, dtype, device, /*pinned=*/false, "cat");
  detail::run_kernel(device, "cat", kernels::cat_stub, out, inputs, d);
  return out;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  TIDE_CHECK(!tensors.empty(), "[stack] stack expects a non-empty TensorList");
  for (const Tensor& t : tensors) detail::check_defined(t, "stack", "every tensor in the list");
  const int64_t d = detail::wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  parts.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    TIDE_CHECK(tensors[i].shape() == tensors[0].shape(),
               "[stack] stack expects each tensor to be equal size, but got ",
               detail::shape_str(tensors[0].shape()), " at entry 0 and ",
               detail::shape_str(tensors[i].shape()), " at entry ", i);
    parts.push_back(tensors[i].unsqueeze(d));
  }
  return cat(parts, d);
}

std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim) {
  detail::check_defined(a, "chunk", "input");
  return a.chunk(chunks, dim);
}

std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim) {
  detail::check_defined(a, "split", "input");
  return a.split(split_size, dim);
}

std::vector<Tensor> split(const Tensor& a, std::vector<int64_t> split_sizes, int64_t dim) {
  detail::check_defined(a, "split", "input");
  return a.split(std::move(split_sizes), dim);
}

Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index) {
  if (TIDE_UNLIKELY(autograd::recording(a))) return autograd::traced::index_select(a, dim, index);
  detail::check_defined(a, "index_select", "input");
  detail::check_defined(index, "index_select", "index");
  const Device device = detail::same_device({{"self", &a}, {"index", &index}}, "index_select");
  TIDE_CHECK(index.dim() <= 1, "[index_select] index_select(): Index is supposed to be a vector, "
             "but got an index of shape ", detail::shape_str(index.shape()));
  TIDE_CHECK(index.dtype() == kInt64 || index.dtype() == kInt32,
             "[index_select] index_select(): Expected dtype int32 or int64 for index, but got ",
             name(index.dtype()), "; convert it with index.to(tide::kInt64)");
  const int64_t d = detail::wrap_dim(dim, a.dim(), "index_select");
  DimVector shape = a.shape();
  if (a.dim() == 0) {
    TIDE_CHECK(index.numel() == 1, "[index_select] index_select(): Index to scalar can have only "
               "1 value, got ", index.numel(), " value(s)");
  } else {
    shape[d] = index.numel();
  }
  const Tensor x = a.contiguous();
  const Tensor idx = index.contiguous();
  Tensor out = detail::make_empty(shape, a.dtype(), device);
  detail::run_kernel(device, "index_select", kernels::index_select_stub, out, x, idx, d);
  return out;
}

}  // namespace tide
