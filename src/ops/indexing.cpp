// Advanced indexing and masks: nonzero, where(cond), take, put_, index, index_put_ and the
// masked ops.
//
// Note [Advanced indexing]: two kernels do the element work of every op here: take (a read by
// flat row-major element number, from a tensor of any strides) and put_ (a write, or an
// accumulation, by the same numbers). index and index_put_ turn their indices into those
// numbers with ordinary int64 ops: each index tensor is checked and wrapped once against the
// size of the dim it indexes (the index_wrap kernel, which reports torch's "index 5 is out of
// bounds for dimension 0 with size 3"), multiplied by that dim's row-major stride and added,
// broadcast, to the arange of every dim no tensor indexes, each placed where it lands in the
// result. A bool mask becomes its nonzero() columns first, one per dim it covers. Where the
// result's indexed dims go is torch's (numpy's) rule: where the first indexed dim was when the
// indexed dims are adjacent, in front of all others when something separates them. The masked
// ops are the same two kernels (masked_select, masked_scatter_) or where (masked_fill). So
// autograd needs derivatives for take and put_ only (autograd/traced_indexing.cpp): the rest
// record through them, through expand and through where.
//
// Note [Data-dependent shapes]: nonzero's row count — and so the shape of masked_select's,
// x[mask]'s and where(cond)'s results — is a value on the device. As torch does, the host
// waits for it: nonzero sums the mask (an ordinary reduction on the mask's stream) and reads
// the sum with item(), which synchronizes with that stream, before it allocates the result.
// Everything else here stays asynchronous: masked_fill is a where, and index/index_put_ with
// integer indices need no count.

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/index_numbers.h"
#include "ops/elementwise.h"
#include "ops/op_common.h"
#include "ops/op_entry.h"
#include "ops/plain_front_ends.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {

Tensor wrapped(const Tensor& index, int64_t size, kernels::IndexErrorKind kind, int64_t aux,
               const char* where) {
  const Tensor idx = index.to(kInt64).contiguous();
  Tensor out = make_empty(idx.shape(), kInt64, idx.device());
  run_kernel(idx.device(), where, kernels::index_wrap_stub, out, idx, size, kind, aux);
  return out;
}

std::vector<int64_t> row_major_strides(const DimVector& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape[d + 1];
  }
  return strides;
}

std::string shape_list(const DimVector& s) {
  std::string out = "[";
  for (int64_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

namespace {

using kernels::IndexErrorKind;
using tide::IndexingError;

bool broadcastable(const DimVector& a, const DimVector& b) {
  for (int64_t i = 1; i <= std::min<int64_t>(a.size(), b.size()); ++i) {
    const int64_t x = a[a.size() - i], y = b[b.size() - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

bool is_mask(const Tensor& t) { return t.dtype() == kBool || t.dtype() == kUInt8; }

/// indices with every mask replaced by its nonzero() columns (one per dim it covers), checked
/// against self's shape as torch checks them; undefined entries stay (None: the whole dim).
std::vector<Tensor> expand_masks(const Tensor& self, const std::vector<Tensor>& indices,
                                 const char* where) {
  std::vector<Tensor> out;
  for (const Tensor& idx : indices) {
    if (!idx.defined()) {
      out.push_back(idx);
      continue;
    }
    TIDE_CHECK_T(IndexingError, idx.dtype() == kInt64 || idx.dtype() == kInt32 || is_mask(idx),
                 "[", where, "] tensors used as indices must be long, int, byte or bool tensors, "
                 "found ", name(idx.dtype()), "; convert the index with .long()");
    if (!is_mask(idx)) {
      out.push_back(idx);
      continue;
    }
    const int64_t first = static_cast<int64_t>(out.size());
    TIDE_CHECK_T(IndexingError, first + idx.dim() <= self.dim(), "[", where, "] too many "
                 "indices for tensor of dimension ", self.dim(), " (got ", first + idx.dim(), ")");
    for (int64_t j = 0; j < idx.dim(); ++j) {
      TIDE_CHECK_T(IndexingError, idx.size(j) == self.size(first + j), "[", where,
                   "] The shape of the mask ", shape_list(idx.shape()), " at index ", j,
                   " does not match the shape of the indexed tensor ", shape_list(self.shape()),
                   " at index ", first + j);
    }
    const Tensor mask = idx.dtype() == kBool ? idx : idx.to(kBool);
    if (mask.dim() == 0) {
      // x[True] adds a dim of size 1, x[False] one of size 0 (torch): an index of 0 or 1 rows
      // into a new leading dim, which index() sees as an unsqueezed self.
      out.push_back(mask.reshape({1}).nonzero().reshape({-1}));
      continue;
    }
    const Tensor nz = mask.nonzero();
    for (int64_t j = 0; j < mask.dim(); ++j) out.push_back(nz.select(1, j));
  }
  return out;
}

/// The flat row-major element numbers in `self` that self[indices] reads, in the result's shape
/// (Note [Advanced indexing]). `indices` has no masks left; at least one entry is defined.
Tensor linear_index(const Tensor& self, const std::vector<Tensor>& indices, const char* where) {
  const int64_t ndim = self.dim();
  TIDE_CHECK_T(IndexingError, static_cast<int64_t>(indices.size()) <= ndim, "[", where,
               "] too many indices for tensor of dimension ", ndim, " (got ", indices.size(), ")");
  const Device device = self.device();
  std::vector<int64_t> positions;
  DimVector b;  // the indices' broadcast shape
  for (int64_t d = 0; d < static_cast<int64_t>(indices.size()); ++d) {
    if (!indices[d].defined()) continue;
    same_device({{"self", &self}, {"indices", &indices[d]}}, where);
    if (positions.empty()) {
      b = indices[d].shape();
    } else {
      TIDE_CHECK_T(IndexingError, broadcastable(b, indices[d].shape()), "[", where,
                   "] shape mismatch: indexing tensors could not be broadcast together with "
                   "shapes ", shape_list(b), ", ", shape_list(indices[d].shape()));
      b = broadcast_shapes(b, indices[d].shape(), where);
    }
    positions.push_back(d);
  }
  TIDE_INTERNAL_ASSERT(!positions.empty());
  const bool adjacent = positions.back() - positions.front() + 1 ==
                        static_cast<int64_t>(positions.size());
  // Where the broadcast dims start in the result, and where each unindexed dim of self lands.
  const int64_t rank = ndim - static_cast<int64_t>(positions.size()) + b.size();
  const std::vector<int64_t> row_major = row_major_strides(self.shape());

  // The result: [unindexed dims before] b [unindexed dims after] when adjacent, else b first.
  DimVector result_shape;
  std::vector<int64_t> place(ndim, -1);  // an unindexed dim's position in the result
  auto indexed = [&](int64_t d) {
    return d < static_cast<int64_t>(indices.size()) && indices[d].defined();
  };
  bool placed = false;
  for (int64_t d = 0; d <= ndim; ++d) {
    if (!placed && (!adjacent || d == ndim || indexed(d))) {
      for (int64_t s : b) result_shape.push_back(s);
      placed = true;
    }
    if (d == ndim || indexed(d)) continue;
    place[d] = static_cast<int64_t>(result_shape.size());
    result_shape.push_back(self.size(d));
  }
  TIDE_INTERNAL_ASSERT(static_cast<int64_t>(result_shape.size()) == rank);
  const int64_t b_start = adjacent ? positions.front() : 0;

  Tensor linear;
  auto add = [&](const Tensor& term) { linear = linear.defined() ? linear + term : term; };
  for (int64_t d : positions) {
    Tensor w = wrapped(indices[d], self.size(d), IndexErrorKind::AdvancedIndex, d, where);
    std::vector<int64_t> shape(rank, 1);
    for (int64_t k = 0; k < static_cast<int64_t>(b.size()); ++k) shape[b_start + k] = b[k];
    // A unit stride (the last dim) needs no multiply; views of the right shape no expand.
    const Tensor term = row_major[d] == 1 ? w : w.mul(row_major[d]);
    add(term.shape() == DimVector(shape) ? term : term.expand(b.vec()).reshape(shape));
  }
  for (int64_t d = 0; d < ndim; ++d) {
    if (place[d] < 0 || self.size(d) == 1) continue;  // a size-1 dim adds 0 everywhere
    std::vector<int64_t> shape(rank, 1);
    shape[place[d]] = self.size(d);
    add(arange(self.size(d), tide::device(device).dtype(kInt64)).mul(row_major[d]).reshape(shape));
  }
  if (linear.shape() == result_shape && linear.is_contiguous()) return linear;
  return linear.expand(result_shape.vec()).contiguous();
}

/// The masks of index/index_put_ expanded, and a 0-dim self given a dim for x[True]-style masks.
struct Prepared {
  Tensor self;
  std::vector<Tensor> indices;
};

Prepared prepare(const Tensor& self, const std::vector<Tensor>& indices, const char* where) {
  check_defined(self, where, "self");
  const bool any = std::any_of(indices.begin(), indices.end(),
                               [](const Tensor& t) { return t.defined(); });
  TIDE_CHECK(any, "[", where, "] expected at least one index tensor, found only None; "
             "index with slices instead");
  // A 0-dim mask (x[True]) indexes a new leading dim of size 1, as torch.
  const auto is_scalar_mask = [](const Tensor& t) {
    return t.defined() && is_mask(t) && t.dim() == 0;
  };
  const bool scalar_mask = indices.size() == 1 && is_scalar_mask(indices[0]);
  TIDE_CHECK(scalar_mask || std::none_of(indices.begin(), indices.end(), is_scalar_mask), "[",
             where, "] a 0-dim mask is supported as the only index, found it among ",
             indices.size(), "; index with a Python bool or unsqueeze the mask");
  const Tensor s = scalar_mask ? self.unsqueeze(0) : self;
  return {s, expand_masks(s, indices, where)};
}

Tensor mask_positions(const Tensor& mask, const DimVector& shape, const char* where) {
  TIDE_CHECK(mask.dtype() == kBool, "[", where, "] expected BoolTensor for mask, found ",
             name(mask.dtype()), "; compare to get one (x > 0) or call .bool()");
  return mask.expand(shape.vec()).contiguous().reshape({-1}).nonzero().reshape({-1});
}

}  // namespace

Tensor plain_nonzero(const Tensor& self) {
  check_defined(self, "nonzero", "self");
  const Tensor mask = (self.dtype() == kBool ? self : ne(self, Scalar(0))).contiguous();
  // Note [Data-dependent shapes]: waits for the device.
  const int64_t n = mask.sum().item().to_int64();
  Tensor out = make_empty({n, self.dim()}, kInt64, self.device());
  run_kernel(self.device(), "nonzero", kernels::nonzero_stub, out, mask);
  return out;
}

std::vector<Tensor> plain_where(const Tensor& condition) {
  const Tensor nz = nonzero(condition.dim() == 0 ? condition.reshape({1}) : condition);
  std::vector<Tensor> out;
  for (int64_t j = 0; j < nz.size(1); ++j) out.push_back(nz.select(1, j));
  return out;
}

Tensor plain_take(const Tensor& self, const Tensor& index) {
  check_defined(self, "take", "self");
  check_defined(index, "take", "index");
  const Device device = same_device({{"self", &self}, {"index", &index}}, "take");
  TIDE_CHECK(index.dtype() == kInt64, "[take] take(): Expected a long tensor for index, but got ",
             name(index.dtype()), "; convert it with index.long()");
  // Checked here, not only by the kernel: on a stream the kernel's report comes later, and an
  // empty self has no element for the ops after it to read instead.
  TIDE_CHECK_T(IndexingError, self.numel() > 0 || index.numel() == 0, "[take] take(): tried to "
               "take from an empty tensor (", index.numel(), " indices given)");
  const Tensor idx = wrapped(index, self.numel(), IndexErrorKind::Take, 0, "take");
  Tensor out = make_empty(index.shape(), self.dtype(), device);
  run_kernel(device, "take", kernels::take_stub, out, self, idx);
  return out;
}

Tensor& plain_put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  check_defined(self, "Tensor::put_", "self");
  const Device device = same_device({{"self", &self}, {"index", &index}, {"source", &source}},
                                    "Tensor::put_");
  TIDE_CHECK(index.dtype() == kInt64, "[Tensor::put_] put_(): Expected a long tensor for index, "
             "but got ", name(index.dtype()), "; convert it with index.long()");
  TIDE_CHECK(self.dtype() == source.dtype(), "[Tensor::put_] put_(): self and source expected to "
             "have the same dtype, but got self.dtype = ", name(self.dtype()),
             " and source.dtype = ", name(source.dtype()), "; convert source with .to(self.dtype)");
  TIDE_CHECK_T(IndexingError, index.numel() == source.numel(), "[Tensor::put_] put_(): Expected "
               "source and index to have the same number of elements, but got source.numel() = ",
               source.numel(), ", index.numel() = ", index.numel());
  TIDE_CHECK_T(IndexingError, self.numel() > 0 || index.numel() == 0, "[Tensor::put_] put_(): "
               "tried to put into an empty tensor (", index.numel(), " indices given)");
  const Tensor idx = wrapped(index, self.numel(), IndexErrorKind::Take, 0, "Tensor::put_");
  run_kernel(device, "Tensor::put_", kernels::put_stub, self, idx, source.contiguous(),
             accumulate);
  return self;
}

Tensor plain_put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  return self.clone().put_(index, source, accumulate);
}

Tensor plain_index(const Tensor& self, const std::vector<Tensor>& indices) {
  const Prepared p = prepare(self, indices, "index");
  return p.self.take(linear_index(p.self, p.indices, "index"));
}

namespace {

/// Note [A mask and one value]: x[mask] = v with one bool mask (among slices) and a
/// one-element cpu value writes v where the mask is set — a masked_fill_, which is one
/// elementwise pass with no count of the mask's ones and so no wait for the device (torch's
/// canDispatchToMaskedFill does the same). Returns the mask, unsqueezed to self's rank, or an
/// undefined tensor when the general path must run (which also raises any misuse).
Tensor mask_of_a_masked_fill(const Tensor& self, const std::vector<Tensor>& indices,
                             const Tensor& values) {
  if (values.numel() != 1 || !values.is_cpu()) return Tensor();
  Tensor mask;
  int64_t covered = 0;  // self's dims the indices cover so far
  for (const Tensor& idx : indices) {
    if (!idx.defined()) {
      ++covered;
      continue;
    }
    if (idx.dtype() != kBool || idx.device() != self.device() || mask.defined() ||
        idx.dim() == 0 || covered + idx.dim() > self.dim()) {
      return Tensor();
    }
    for (int64_t j = 0; j < idx.dim(); ++j) {
      if (idx.size(j) != self.size(covered + j)) return Tensor();
    }
    mask = idx;
    covered += idx.dim();
  }
  if (!mask.defined()) return Tensor();
  for (int64_t d = covered; d < self.dim(); ++d) mask = mask.unsqueeze(-1);
  return mask;
}

}  // namespace

Tensor& plain_index_put_(Tensor& self, const std::vector<Tensor>& indices, const Tensor& values,
                         bool accumulate) {
  check_defined(self, "Tensor::index_put_", "self");
  check_defined(values, "Tensor::index_put_", "values");
  if (!accumulate && values.dtype() == self.dtype()) {
    // Note [A mask and one value].
    const Tensor mask = mask_of_a_masked_fill(self, indices, values);
    if (mask.defined()) {
      // A value autograd need not see goes as a number: the fill is then one kernel when
      // nothing records (Note [Masked fill in place]); values is a cpu tensor, so no wait.
      if (!op_intercepted(values)) return self.masked_fill_(mask, values.item());
      return self.masked_fill_(mask, values.reshape({}));
    }
  }
  const Prepared p = prepare(self, indices, "Tensor::index_put_");
  TIDE_CHECK(values.dtype() == self.dtype(), "[Tensor::index_put_] Index put requires the source "
             "and destination dtypes match, got ", name(self.dtype()), " for the destination and ",
             name(values.dtype()), " for the source; convert values with .to(self.dtype)");
  const Tensor linear = linear_index(p.self, p.indices, "Tensor::index_put_");
  // Leading dims of size 1 beyond the result's rank are dropped, as torch does.
  Tensor values1 = values;
  while (values1.dim() > linear.dim() && values1.size(0) == 1) values1 = values1.squeeze(0);
  TIDE_CHECK(values1.dim() <= linear.dim() && broadcastable(values1.shape(), linear.shape()),
             "[Tensor::index_put_] shape mismatch: value tensor of shape ",
             shape_list(values.shape()), " cannot be broadcast to indexing result of shape ",
             shape_list(linear.shape()));
  // A 0-dim cpu value may fill a GPU tensor (torch's wrapped-number rule).
  const Tensor v = values1.dim() == 0 && values1.device() != self.device()
                       ? values1.to(self.device())
                       : values1;
  Tensor target = p.self;  // self, or its unsqueezed view for a 0-dim mask
  target.put_(linear, v.expand(linear.sizes()), accumulate);
  return self;
}

Tensor plain_index_put(const Tensor& self, const std::vector<Tensor>& indices,
                       const Tensor& values, bool accumulate) {
  return self.clone().index_put_(indices, values, accumulate);
}

Tensor plain_masked_select(const Tensor& self, const Tensor& mask) {
  check_defined(self, "masked_select", "self");
  check_defined(mask, "masked_select", "mask");
  same_device({{"self", &self}, {"mask", &mask}}, "masked_select");
  const DimVector shape = broadcast_shapes(self.shape(), mask.shape(), "masked_select");
  const Tensor positions = mask_positions(mask, shape, "masked_select");
  return self.expand(shape.vec()).take(positions);
}

Tensor plain_masked_fill(const Tensor& self, const Tensor& mask, Scalar value) {
  check_defined(self, "masked_fill", "self");
  TIDE_CHECK(mask.dtype() == kBool, "[masked_fill] masked_fill_ only supports boolean masks, but "
             "got mask with dtype ", name(mask.dtype()), "; compare to get one or call .bool()");
  // A 0-dim value of self's dtype: where keeps self's dtype, as masked_fill does.
  const Tensor v = full({}, value, tide::device(self.device()).dtype(self.dtype()));
  return where(mask, v, self);
}

Tensor plain_masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_defined(value, "masked_fill", "value");
  TIDE_CHECK(value.dim() == 0, "[masked_fill] masked_fill_ only supports a 0-dimensional value "
             "tensor, but got tensor with ", value.dim(), " dimension(s).");
  TIDE_CHECK(mask.dtype() == kBool, "[masked_fill] masked_fill_ only supports boolean masks, but "
             "got mask with dtype ", name(mask.dtype()), "; compare to get one or call .bool()");
  return where(mask, value.to(self.device(), self.dtype()), self);
}

namespace {
Tensor& fill_in_place(Tensor& self, const Tensor& filled) {
  TIDE_CHECK(filled.shape() == self.shape(), "[Tensor::masked_fill_] the mask of shape ",
             shape_list(filled.shape()), " does not broadcast to self's shape ",
             shape_list(self.shape()), " (an in-place op cannot grow self)");
  self.copy_(filled);
  return self;
}

/// Note [Masked fill in place]: masked_fill_ is a composite op — masked_fill (a where into a
/// new tensor) and a copy_ back — which autograd records through. When the op entry would take
/// the plain path anyway (op_intercepted: nothing records), the where writes self directly:
/// one kernel and no result to allocate. That needs a self whose elements do not overlap
/// (contiguous) and a bool mask on self's device that broadcasts to self's shape without
/// growing it; anything else (including every misuse, for its message) takes the composite
/// path. The value is made as masked_fill makes it, so it converts to self's dtype alike.
bool fills_in_place(const Tensor& self, const Tensor& mask) {
  if (op_intercepted(self, mask) || mask.dtype() != kBool || mask.device() != self.device() ||
      mask.dim() > self.dim() || !self.is_contiguous()) {
    return false;
  }
  for (int64_t i = 1; i <= mask.dim(); ++i) {
    const int64_t m = mask.shape()[mask.dim() - i];
    if (m != 1 && m != self.shape()[self.dim() - i]) return false;
  }
  return true;
}
}  // namespace

Tensor& plain_masked_fill_(Tensor& self, const Tensor& mask, Scalar value) {
  if (self.defined() && mask.defined() && fills_in_place(self, mask)) {
    const Tensor v = full({}, value, tide::device(self.device()).dtype(self.dtype()));
    self.storage().bump_version();  // Note [Version counters]
    run_kernel(self.device(), "Tensor::masked_fill_", kernels::where_stub, self,
               broadcast_to(mask, self.shape()), broadcast_to(v, self.shape()), self);
    return self;
  }
  return fill_in_place(self, masked_fill(self, mask, value));
}

Tensor& plain_masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value) {
  return fill_in_place(self, masked_fill(self, mask, value));
}

Tensor& plain_masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source) {
  check_defined(self, "Tensor::masked_scatter_", "self");
  check_defined(source, "Tensor::masked_scatter_", "source");
  same_device({{"self", &self}, {"mask", &mask}, {"source", &source}}, "Tensor::masked_scatter_");
  TIDE_CHECK(self.dtype() == source.dtype(), "[Tensor::masked_scatter_] masked_scatter: expected "
             "self and source to have same dtypes but got ", name(self.dtype()), " and ",
             name(source.dtype()));
  TIDE_CHECK(broadcast_shapes(self.shape(), mask.shape(), "Tensor::masked_scatter_") ==
                 self.shape(),
             "[Tensor::masked_scatter_] the mask of shape ", shape_list(mask.shape()),
             " does not broadcast to self's shape ", shape_list(self.shape()));
  const Tensor positions = mask_positions(mask, self.shape(), "Tensor::masked_scatter_");
  const int64_t n = positions.numel();
  TIDE_CHECK(source.numel() >= n, "[Tensor::masked_scatter_] Number of elements of source < "
             "number of ones in mask (", source.numel(), " < ", n, ")");
  return self.put_(positions, source.reshape({-1}).narrow(0, 0, n));
}

Tensor plain_masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  const DimVector shape = broadcast_shapes(self.shape(), mask.shape(), "masked_scatter");
  Tensor r = shape == self.shape() ? self.clone() : self.expand(shape.vec()).contiguous();
  return r.masked_scatter_(mask, source);
}

}  // namespace tide::detail
