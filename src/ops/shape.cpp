// The plain front ends of the op table's shape family (src/ops/ops.yaml): cat, stack and
// index_select, which move data, and chunk and split, which return views (narrow) of self.

#include <algorithm>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

/// torch keeps accepting 1-D empty tensors of any other shape in cat and skips them.
bool legacy_empty(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

}  // namespace

Tensor plain_cat(const std::vector<Tensor>& tensors, int64_t dim) {
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

Tensor plain_stack(const std::vector<Tensor>& tensors, int64_t dim) {
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
  return tide::cat(parts, d);
}

std::vector<Tensor> plain_split(const Tensor& self, int64_t split_size, int64_t dim_) {
  check_defined(self, "split", "input");
  TIDE_CHECK(self.dim() > 0, "[Tensor::split] split expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::split");
  TIDE_CHECK(split_size > 0 || (split_size == 0 && self.shape()[d] == 0),
             "[Tensor::split] split_size can only be 0 if dimension size is 0, but got "
             "split_size ", split_size, " for dimension ", d, " of size ", self.shape()[d]);
  int64_t n = self.shape()[d];
  std::vector<Tensor> out;
  if (n == 0) {
    out.push_back(self);
    return out;
  }
  // Steps of at most n - s: s + split_size could overflow near INT64_MAX (a long dim of an
  // empty tensor).
  for (int64_t s = 0; s < n;) {
    const int64_t length = std::min(split_size, n - s);
    out.push_back(self.narrow(d, s, length));
    s += length;
  }
  return out;
}

std::vector<Tensor> plain_split(const Tensor& self, const std::vector<int64_t>& split_sizes,
                                int64_t dim_) {
  check_defined(self, "split", "input");
  TIDE_CHECK(self.dim() > 0, "[Tensor::split] split expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::split");
  // Non-negative sizes first, so that their sum can only overflow upwards.
  int64_t total = 0;
  bool overflow = false;
  for (int64_t len : split_sizes) {
    TIDE_CHECK(len >= 0, "[Tensor::split] split_sizes must be non-negative, got ", len);
    overflow |= __builtin_add_overflow(total, len, &total);
  }
  TIDE_CHECK(!overflow && total == self.shape()[d], "[Tensor::split] split_with_sizes expects split_sizes to sum "
             "exactly to ", self.shape()[d], " (input tensor's size at dimension ", d,
             "), but got split_sizes summing to ", overflow ? "more than int64 holds" : std::to_string(total));
  std::vector<Tensor> out;
  int64_t s = 0;
  for (int64_t len : split_sizes) {
    out.push_back(self.narrow(d, s, len));
    s += len;
  }
  return out;
}

std::vector<Tensor> plain_chunk(const Tensor& self, int64_t chunks, int64_t dim_) {
  check_defined(self, "chunk", "input");
  TIDE_CHECK(self.dim() > 0, "[Tensor::chunk] chunk expects at least a 1-dimensional tensor");
  TIDE_CHECK(chunks > 0, "[Tensor::chunk] chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::chunk");
  int64_t n = self.shape()[d];
  int64_t split_size = n == 0 ? 0 : 1 + (n - 1) / chunks;  // ceil(n / chunks), for any chunks
  if (split_size == 0 && n == 0) {
    std::vector<int64_t> sizes(static_cast<size_t>(chunks), 0);
    return self.split(sizes, d);
  }
  return self.split(split_size, d);
}

Tensor plain_index_select(const Tensor& a, int64_t dim, const Tensor& index) {
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

}  // namespace tide::detail
