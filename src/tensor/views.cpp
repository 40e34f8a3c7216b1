// View ops: new geometry over the same storage. No data moves here, except reshape of a
// tensor whose strides cannot express the new shape (then it copies, as torch). These are the
// plain front ends of the op table's views (src/ops/ops.yaml); their Tensor methods, with the
// op entry, are generated (src/tensor/generated_tensor_methods.cpp).

#include <algorithm>

#include "ops/plain_front_ends.h"
#include "tensor/checked_size.h"
#include "tensor/tensor_internal.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide {
namespace {

using detail::wrap_dim;

// Every view links to its base, the tensor that is not a view whose storage it shows (Note
// [Views and in-place ops] in autograd/view_history.h): one refcount per view, none per op.
Tensor make_view(const Tensor& t, DimVector sizes, DimVector strides, int64_t offset) {
  Tensor view(t.storage(), t.dtype(), std::move(sizes), std::move(strides), offset);
  TensorImpl* in = t.impl();
  TensorImpl* out = view.impl();
  out->view_base = in->view_base ? in->view_base : t.impl_ptr();
  out->view_version = t.storage().version();
  // As torch's propagate_creation_meta: a view of a view made without grad is one too.
  out->view_made_without_grad =
      (in->view_base && in->view_made_without_grad) || !GradMode::is_enabled();
  return view;
}

// Note [Views of empty tensors]: a tensor with a zero size can have strides whose products
// with its sizes or indices overflow int64 (contiguous_strides wraps them: reshaping an empty
// tensor to [11, INT64_MAX, 0] gives stride INT64_MAX to dim 0). It addresses no element, and
// neither does any view of it, so where such a product would overflow the view keeps its
// base's offset or a stride of 1 instead of overflowing. A tensor with elements never gets
// there: every element it addresses lies inside its storage.
int64_t shifted_offset(int64_t offset, int64_t index, int64_t stride) {
  int64_t shift = 0, shifted = 0;
  if (__builtin_mul_overflow(index, stride, &shift) || __builtin_add_overflow(offset, shift, &shifted))
    return offset;
  return shifted;
}

// Resolves a single -1 in `shape` against numel, checking compatibility (torch's infer_size).
// The product of the known sizes is checked for overflow: a wrapped product could otherwise
// match numel (Note [Size overflow]).
DimVector infer_size(const std::vector<int64_t>& shape, int64_t numel, const char* where) {
  DimVector out(shape);
  int64_t infer = -1;
  int64_t known = 1;
  bool overflow = false;
  bool zero = false;
  for (int64_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      TIDE_CHECK(infer < 0, "[", where, "] only one dimension can be inferred (-1), got shape ",
                 detail::shape_str(out));
      infer = i;
    } else {
      TIDE_CHECK(out[i] >= 0, "[", where, "] invalid shape dimension ", out[i], " in ",
                 detail::shape_str(out));
      zero |= out[i] == 0;
      overflow |= __builtin_mul_overflow(known, out[i], &known);
    }
  }
  if (zero) known = 0;  // as torch, a product containing 0 is 0 and never overflows
  TIDE_CHECK(!overflow || zero, "[", where, "] shape '", detail::shape_str(out),
             "' is invalid for input of size ", numel, ": the product of the sizes overflows int64");
  if (infer >= 0) {
    TIDE_CHECK(known != 0 && numel % known == 0, "[", where, "] shape '",
               detail::shape_str(out), "' is invalid for input of size ", numel);
    out[infer] = numel / known;
  } else {
    TIDE_CHECK(known == numel, "[", where, "] shape '", detail::shape_str(out),
               "' is invalid for input of size ", numel);
  }
  return out;
}

// Strides for viewing (sizes, strides) as new_sizes without copying, or false if impossible
// (torch's computeStride: chunks of old dims that are contiguous among themselves).
bool compute_view_strides(const DimVector& old_sizes, const DimVector& old_strides,
                          const DimVector& new_sizes, DimVector& new_strides) {
  new_strides = DimVector(new_sizes.size());
  if (old_sizes.empty()) {
    for (int64_t i = 0; i < new_sizes.size(); ++i) new_strides[i] = 1;
    return true;
  }
  // Without elements (the product of the other sizes may overflow: Note [Views of empty
  // tensors]), any shape of as many elements is a view.
  if (std::find(old_sizes.begin(), old_sizes.end(), 0) != old_sizes.end()) {
    new_strides = detail::contiguous_strides(new_sizes);
    return true;
  }
  int64_t view_d = new_sizes.size() - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = old_sizes.size() - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d];
    if (tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                          old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        new_strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

}  // namespace

namespace detail {

Tensor plain_view(const Tensor& self, const std::vector<int64_t>& sizes) {
  DimVector shape = infer_size(sizes, self.numel(), "Tensor::view");
  DimVector strides;
  TIDE_CHECK(compute_view_strides(self.shape(), self.stride_vector(), shape, strides),
             "[Tensor::view] view size is not compatible with input tensor's size and stride (at "
             "least one dimension spans across two contiguous subspaces). Use .reshape(...) "
             "instead.");
  return make_view(self, std::move(shape), std::move(strides), self.storage_offset());
}

// Note [A view as another dtype]: torch's view(dtype) reads the same bytes as `dtype`. With
// equal element sizes only the dtype changes. Otherwise the last dim must be contiguous and it
// alone changes length: ratio elements of the narrower dtype make one of the wider, so every
// other stride and the offset scale by the ratio (and must divide by it when narrowing to
// wider). torch's checks and words; not differentiable (torch 1.13 records no grad_fn even for
// the same dtype), so the view never requires grad.
Tensor plain_view(const Tensor& self, Dtype dtype) {
  const auto from = static_cast<int64_t>(self.element_size());
  const auto to = static_cast<int64_t>(element_size(dtype));
  DimVector sizes = self.shape(), strides = self.stride_vector();
  int64_t offset = self.storage_offset();
  if (from != to) {
    const auto what = [&] {
      return detail::concat(" to view ", self.dtype(), " as ", dtype, " (different element sizes)");
    };
    TIDE_CHECK(self.dim() > 0, "[Tensor::view] self.dim() cannot be 0", what(),
               "; view a tensor with at least one dimension, e.g. x.reshape(1).view(dtype)");
    const int64_t last = self.dim() - 1;
    TIDE_CHECK(strides[last] == 1, "[Tensor::view] self.stride(-1) must be 1", what(),
               ", but got ", strides[last], "; make it contiguous first (x.contiguous())");
    if (from > to) {
      const int64_t ratio = from / to;
      for (int64_t d = 0; d < last; ++d) strides[d] *= ratio;
      sizes[last] *= ratio;
      offset *= ratio;
    } else {
      const int64_t ratio = to / from;
      TIDE_CHECK(sizes[last] % ratio == 0, "[Tensor::view] self.size(-1) must be divisible by ",
                 ratio, what(), ", but got ", sizes[last]);
      for (int64_t d = 0; d < last; ++d) {
        TIDE_CHECK(strides[d] % ratio == 0, "[Tensor::view] self.stride(", d,
                   ") must be divisible by ", ratio, what(), ", but got ", strides[d]);
        strides[d] /= ratio;
      }
      TIDE_CHECK(offset % ratio == 0, "[Tensor::view] self.storage_offset() must be divisible by ",
                 ratio, what(), ", but got ", offset);
      sizes[last] /= ratio;
      offset /= ratio;
    }
  }
  Tensor view = make_view(self.detach(), std::move(sizes), std::move(strides), offset);
  view.impl()->dtype = dtype;
  return view;
}

Tensor plain_reshape(const Tensor& self, const std::vector<int64_t>& sizes) {
  DimVector shape = infer_size(sizes, self.numel(), "Tensor::reshape");
  DimVector strides;
  if (compute_view_strides(self.shape(), self.stride_vector(), shape, strides)) {
    return make_view(self, std::move(shape), std::move(strides), self.storage_offset());
  }
  // A copy, not a view of it: nothing else shows the new storage (torch's _unsafe_view).
  const Tensor copy = self.contiguous();
  return Tensor(copy.storage(), copy.dtype(), shape, detail::contiguous_strides(shape),
                copy.storage_offset());
}

Tensor plain_flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  // A 0-dim tensor accepts 0 and -1.
  int64_t s = wrap_dim(start_dim, self.dim(), "Tensor::flatten");
  int64_t e = wrap_dim(end_dim, self.dim(), "Tensor::flatten");
  if (self.dim() == 0) return self.reshape({1});
  TIDE_CHECK(s <= e, "[Tensor::flatten] start_dim (", start_dim, ") cannot come after end_dim (",
             end_dim, ")");
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < s; ++d) shape.push_back(self.shape()[d]);
  // Only a tensor without elements has dims whose product overflows (Note [Views of empty
  // tensors]); a zero among them makes it 0.
  const DimVector flattened(self.shape().begin() + s, self.shape().begin() + e + 1);
  int64_t flat = 0;
  TIDE_CHECK(!detail::numel_overflows(flattened, flat), "[Tensor::flatten] flattening dims ", s, " to ", e,
             " of a tensor of shape ", detail::shape_str(self.shape()),
             " gives a size that does not fit in int64 (their product overflows)");
  shape.push_back(flat);
  for (int64_t d = e + 1; d < self.dim(); ++d) shape.push_back(self.shape()[d]);
  return self.reshape(shape);
}

Tensor plain_transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  int64_t a = wrap_dim(dim0, self.dim(), "Tensor::transpose");
  int64_t b = wrap_dim(dim1, self.dim(), "Tensor::transpose");
  if (self.dim() == 0) {
    return make_view(self, self.shape(), self.stride_vector(), self.storage_offset());
  }
  DimVector sizes = self.shape(), strides = self.stride_vector();
  std::swap(sizes[a], sizes[b]);
  std::swap(strides[a], strides[b]);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor plain_t(const Tensor& self) {
  TIDE_CHECK(self.dim() <= 2, "[Tensor::t] t() expects a tensor with <= 2 dimensions, but self is ",
             self.dim(), "D; use transpose(dim0, dim1) or permute for more dimensions");
  return self.dim() < 2 ? self.transpose(0, 0) : self.transpose(0, 1);
}

Tensor plain_permute(const Tensor& self, const std::vector<int64_t>& dims) {
  TIDE_CHECK(static_cast<int64_t>(dims.size()) == self.dim(),
             "[Tensor::permute] number of dims don't match in permute: the tensor has ", self.dim(),
             " dims but ", dims.size(), " were given");
  DimVector sizes(self.dim()), strides(self.dim());
  std::vector<bool> seen(static_cast<size_t>(self.dim()), false);
  for (int64_t i = 0; i < self.dim(); ++i) {
    int64_t d = wrap_dim(dims[static_cast<size_t>(i)], self.dim(), "Tensor::permute");
    TIDE_CHECK(!seen[static_cast<size_t>(d)], "[Tensor::permute] repeated dim ", d,
               " in permute; each dim must appear exactly once");
    seen[static_cast<size_t>(d)] = true;
    sizes[i] = self.shape()[d];
    strides[i] = self.stride_vector()[d];
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor plain_slice(const Tensor& self, int64_t dim_, std::optional<int64_t> start,
                   std::optional<int64_t> stop, int64_t step) {
  TIDE_CHECK(self.dim() > 0, "[Tensor::slice] cannot slice a 0-dim tensor");
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::slice");
  TIDE_CHECK(step > 0, "[Tensor::slice] slice step must be positive, got ", step);
  int64_t n = self.shape()[d];
  auto clampi = [n](int64_t v) {
    if (v < 0) v += n;
    return std::min(std::max<int64_t>(v, 0), n);
  };
  int64_t b = start ? clampi(*start) : 0;
  int64_t e = stop ? clampi(*stop) : n;
  if (e < b) e = b;
  DimVector sizes = self.shape(), strides = self.stride_vector();
  // ceil((e - b) / step) and stride * step without int64 overflow for steps near INT64_MAX:
  // a product that overflows belongs to a dim of at most one element, where it never
  // multiplies an index, so that dim keeps its stride.
  sizes[d] = e == b ? 0 : 1 + (e - b - 1) / step;
  int64_t stride = 0;
  if (!__builtin_mul_overflow(strides[d], step, &stride)) strides[d] = stride;
  return make_view(self, std::move(sizes), std::move(strides),
                   shifted_offset(self.storage_offset(), b, self.stride_vector()[d]));
}

Tensor plain_narrow(const Tensor& self, int64_t dim_, int64_t start, int64_t length) {
  TIDE_CHECK(self.dim() > 0, "[Tensor::narrow] narrow() cannot be applied to a 0-dim tensor");
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::narrow");
  int64_t n = self.shape()[d];
  TIDE_CHECK(start >= -n && start <= n, "[Tensor::narrow] start (", start,
             ") is out of bounds for dimension ", d, " of size ", n);
  if (start < 0) start += n;
  TIDE_CHECK(length >= 0 && length <= n - start, "[Tensor::narrow] start (", start,
             ") + length (", length, ") exceeds dimension size (", n, ")");
  return self.slice(d, start, start + length, 1);
}

Tensor plain_select(const Tensor& self, int64_t dim_, int64_t index) {
  TIDE_CHECK(self.dim() > 0, "[Tensor::select] select() cannot be applied to a 0-dim tensor");
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::select");
  int64_t n = self.shape()[d];
  TIDE_CHECK(index >= -n && index < n, "[Tensor::select] index ", index,
             " is out of bounds for dimension ", d, " with size ", n);
  if (index < 0) index += n;
  DimVector sizes = self.shape(), strides = self.stride_vector();
  int64_t offset = shifted_offset(self.storage_offset(), index, strides[d]);
  sizes.erase(d);
  strides.erase(d);
  return make_view(self, std::move(sizes), std::move(strides), offset);
}

Tensor plain_unsqueeze(const Tensor& self, int64_t dim_) {
  int64_t d = wrap_dim(dim_, self.dim() + 1, "Tensor::unsqueeze");
  DimVector sizes = self.shape(), strides = self.stride_vector();
  // Note [Views of empty tensors]: an overflowing product only comes from a tensor without
  // elements, where any stride serves.
  int64_t st = 1;
  if (d < self.dim() && __builtin_mul_overflow(sizes[d], strides[d], &st)) st = 1;
  sizes.insert(d, 1);
  strides.insert(d, st);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor plain_squeeze(const Tensor& self) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.shape()[d] != 1) {
      sizes.push_back(self.shape()[d]);
      strides.push_back(self.stride_vector()[d]);
    }
  }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor plain_squeeze(const Tensor& self, int64_t dim_) {
  int64_t d = wrap_dim(dim_, self.dim(), "Tensor::squeeze");  // a 0-dim tensor accepts 0 and -1
  if (self.dim() == 0) return make_view(self, {}, {}, self.storage_offset());
  if (self.shape()[d] != 1) {
    return make_view(self, self.shape(), self.stride_vector(), self.storage_offset());
  }
  DimVector sizes = self.shape(), strides = self.stride_vector();
  sizes.erase(d);
  strides.erase(d);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor plain_expand(const Tensor& self, const std::vector<int64_t>& target) {
  const int64_t nd = static_cast<int64_t>(target.size());
  TIDE_CHECK(nd >= self.dim(), "[Tensor::expand] the number of sizes provided (", nd,
             ") must be greater or equal to the number of dimensions in the tensor (", self.dim(),
             ")");
  DimVector sizes(nd), strides(nd);
  for (int64_t i = nd - 1; i >= 0; --i) {
    int64_t src = i - (nd - self.dim());
    int64_t want = target[static_cast<size_t>(i)];
    if (src < 0) {
      TIDE_CHECK(want >= 0, "[Tensor::expand] the expanded size of the tensor (", want,
                 ") isn't allowed in a leading, non-existing dimension ", i);
      sizes[i] = want;
      strides[i] = 0;
      continue;
    }
    int64_t have = self.shape()[src];
    if (want == -1) want = have;
    TIDE_CHECK(have == want || have == 1, "[Tensor::expand] The expanded size of the tensor (",
               want, ") must match the existing size (", have, ") at non-singleton dimension ", i,
               ".  Target sizes: ", detail::shape_str(DimVector(target)), ".  Tensor sizes: ",
               detail::shape_str(self.shape()));
    sizes[i] = want;
    strides[i] = have == want ? self.stride_vector()[src] : 0;
  }
  detail::checked_numel(sizes, "Tensor::expand");  // Note [Size overflow]
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor plain_expand_as(const Tensor& self, const Tensor& other) {
  return self.expand(other.sizes());
}

}  // namespace detail

Tensor Tensor::operator[](int64_t index) const { return select(0, index); }

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index(std::vector<TensorIndex>(indices));
}

Tensor Tensor::index(const std::vector<TensorIndex>& indices) const {
  TIDE_CHECK(static_cast<int64_t>(indices.size()) <= dim(), "[Tensor::index] too many indices for tensor of dimension ",
             dim(), " (got ", indices.size(), ")");
  Tensor r = *this;
  int64_t d = 0;
  for (const TensorIndex& ix : indices) {
    if (ix.is_slice()) {
      r = r.slice(d, ix.slice().start, ix.slice().stop, ix.slice().step);
      ++d;
    } else {
      r = r.select(d, ix.integer());
    }
  }
  return r;
}

}  // namespace tide
