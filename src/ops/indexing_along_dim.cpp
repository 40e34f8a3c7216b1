// Indexing along one dim: gather, scatter(_) (src and value), scatter_add(_), scatter_reduce(_),
// index_add(_), index_copy(_) and index_fill(_). Each turns its index into flat element numbers of self — the
// index supplies the coordinate along `dim`, an element's own position the others — and reads
// them with take or writes them with put_ (Note [Advanced indexing] in ops/indexing.cpp), so
// autograd records through those two; a gather that records nothing runs one kernel of its own
// (Note [A gather of its own]). As in torch, only index_fill's indices count from the
// end (kernels::IndexErrorKind says which error each raises).

#include <string>
#include <vector>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/index_numbers.h"
#include "ops/op_common.h"
#include "ops/op_entry.h"
#include "ops/plain_front_ends.h"
#include "ops/scatter_reduce_grad.h"
#include "tensor/tensor_internal.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

using kernels::IndexErrorKind;

/// Flat numbers in self of the elements at the positions of `shape`, whose coordinate along d
/// is `coords` (int64, already checked, broadcastable to shape) and whose other coordinates are
/// their own position.
Tensor numbers_along(const Tensor& self, int64_t d, const Tensor& coords, const DimVector& shape) {
  const std::vector<int64_t> strides = row_major_strides(self.shape());
  const int64_t rank = shape.size();
  // Ops skipped where they would change nothing (a unit stride; coords already in `shape`):
  // a gather of a vector is then the index check and the take alone.
  Tensor linear = strides[d] == 1 ? coords : coords.mul(strides[d]);
  for (int64_t k = 0; k < rank; ++k) {
    if (k == d || shape[k] == 1) continue;
    std::vector<int64_t> axis(rank, 1);
    axis[k] = shape[k];
    linear = linear + arange(shape[k], tide::device(self.device()).dtype(kInt64))
                          .mul(strides[k])
                          .reshape(axis);
  }
  if (linear.shape() == shape && linear.is_contiguous()) return linear;
  return linear.expand(shape.vec()).contiguous();
}

/// gather's and scatter's index: self's rank, int64, no larger than self (and src) apart from
/// dim; returns dim wrapped. The entries are checked by the kernel that reads them.
int64_t check_scatter_index(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& src, const char* where) {
  check_defined(self, where, "self");
  check_defined(index, where, "index");
  same_device({{"self", &self}, {"index", &index}}, where);
  TIDE_CHECK(index.dtype() == kInt64, "[", where, "] ", where, "(): Expected dtype int64 for "
             "index, found ", name(index.dtype()), "; convert it with index.long()");
  TIDE_CHECK(index.dim() == self.dim(), "[", where, "] Index tensor must have the same number "
             "of dimensions as input tensor (", index.dim(), " and ", self.dim(), ")");
  const int64_t d = wrap_dim(dim, self.dim(), where);
  for (int64_t k = 0; k < self.dim(); ++k) {
    TIDE_CHECK(k == d || index.size(k) <= self.size(k), "[", where, "] Size does not match at "
               "dimension ", k, " expected index ", shape_list(index.shape()), " to be smaller "
               "than self ", shape_list(self.shape()), " apart from dimension ", d);
    TIDE_CHECK(!src.defined() || index.size(k) <= src.size(k), "[", where, "] Expected index ",
               shape_list(index.shape()), " to be smaller than src ", shape_list(src.shape()),
               " at dimension ", k);
  }
  return d;
}

/// The flat numbers in self that gather's and scatter's index addresses, in index's shape,
/// after check_scatter_index's checks and each entry's against self.size(dim).
Tensor scatter_numbers(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       const char* where) {
  const int64_t d = check_scatter_index(self, dim, index, src, where);
  const Tensor coords = wrapped(index, self.size(d), IndexErrorKind::DimIndex, d, where);
  return numbers_along(self, d, coords, index.shape());
}

/// src's leading part of index's shape (scatter reads src[i][j] for each index[i][j] only).
Tensor leading(const Tensor& src, const Tensor& index) {
  Tensor out = src;
  for (int64_t k = 0; k < index.dim(); ++k) {
    if (index.size(k) != out.size(k)) out = out.narrow(k, 0, index.size(k));
  }
  return out;
}

/// The index_* ops' index (a vector or a single index, int64 or int32) and source (self's shape
/// with index.numel() along dim); returns the flat numbers in source's shape, or in `shape` for
/// index_fill, which has no source.
Tensor index_numbers(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                     IndexErrorKind kind, const char* where) {
  check_defined(self, where, "self");
  check_defined(index, where, "index");
  same_device({{"self", &self}, {"index", &index}}, where);
  TIDE_CHECK(index.dim() <= 1, "[", where, "] ", where, "(): Index is supposed to be a vector, "
             "found an index of shape ", shape_list(index.shape()));
  TIDE_CHECK(index.dtype() == kInt64 || index.dtype() == kInt32, "[", where, "] ", where,
             "(): Expected dtype int32/int64 for index, found ", name(index.dtype()));
  const Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  const int64_t d = wrap_dim(dim, s.dim(), where);
  DimVector shape = s.shape();
  shape[d] = index.numel();
  if (source.defined()) {
    const DimVector given = source.dim() == 0 ? DimVector{1} : source.shape();
    TIDE_CHECK(given == shape, "[", where, "] ", where, "(): source of shape ",
               shape_list(source.shape()), " expected to have self's shape ",
               shape_list(self.shape()), " with ", index.numel(), " (the number of indices) at "
               "dim ", d, "; found ", shape_list(given));
    TIDE_CHECK(source.dtype() == self.dtype(), "[", where, "] ", where, "(): self (",
               name(self.dtype()), ") and source (", name(source.dtype()), ") must have the "
               "same scalar type");
  }
  std::vector<int64_t> axis(shape.size(), 1);
  axis[d] = index.numel();
  const Tensor coords = wrapped(index, s.size(d), kind, d, where);
  return numbers_along(s, d, coords.reshape(axis), shape);
}

}  // namespace

/// Note [A gather of its own]: gather is a composite op (autograd records it through take,
/// Note [Advanced indexing]), which costs three kernels: the index checked against the dim,
/// the flat numbers checked again by take, the read. When the op entry would take the plain
/// path anyway (no operand has autograd metadata under grad mode: op_intercepted), nothing is
/// recorded, and one kernel does it all: gather_stub checks each entry as it reads it and
/// reports a bad one as the wrap kernel does (torch's message and error type, kind DimIndex;
/// from an empty self every entry is bad, and nothing is read). A 0-dim self (and index, src) is read as a 1-element vector, as torch does.
Tensor plain_gather(const Tensor& self, int64_t dim, const Tensor& index) {
  const Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  const Tensor idx = self.dim() == 0 ? index.reshape({-1}) : index;
  if (TIDE_UNLIKELY(op_intercepted(self, index))) {
    return s.take(scatter_numbers(s, dim, idx, Tensor(), "gather")).reshape(index.sizes());
  }
  const int64_t d = check_scatter_index(s, dim, idx, Tensor(), "gather");
  Tensor out = make_empty(index.shape(), self.dtype(), self.device());
  if (idx.numel() > 0) {
    run_kernel(self.device(), "gather", kernels::gather_stub,
               self.dim() == 0 ? out.reshape({-1}) : out, s, idx.contiguous(), d);
  }
  return out;
}

Tensor& plain_scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_defined(src, "Tensor::scatter_", "src");
  TIDE_CHECK(src.dtype() == self.dtype(), "[Tensor::scatter_] scatter(): Expected self.dtype to "
             "be equal to src.dtype (", name(self.dtype()), " and ", name(src.dtype()), ")");
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  const Tensor idx = self.dim() == 0 ? index.reshape({-1}) : index;
  const Tensor from = self.dim() == 0 ? src.reshape({-1}) : src;
  s.put_(scatter_numbers(s, dim, idx, from, "Tensor::scatter_"), leading(from, idx));
  return self;
}

Tensor& plain_scatter_(Tensor& self, int64_t dim, const Tensor& index, Scalar value) {
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  const Tensor idx = self.dim() == 0 ? index.reshape({-1}) : index;
  const Tensor numbers = scatter_numbers(s, dim, idx, Tensor(), "Tensor::scatter_");
  s.put_(numbers, full(numbers.sizes(), value, tide::device(self.device()).dtype(self.dtype())));
  return self;
}

Tensor plain_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone().scatter_(dim, index, src);
}

Tensor plain_scatter(const Tensor& self, int64_t dim, const Tensor& index, Scalar value) {
  return self.clone().scatter_(dim, index, value);
}

Tensor& plain_scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_defined(src, "Tensor::scatter_add_", "src");
  TIDE_CHECK(src.dtype() == self.dtype(), "[Tensor::scatter_add_] scatter_add(): Expected "
             "self.dtype to be equal to src.dtype (", name(self.dtype()), " and ",
             name(src.dtype()), ")");
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  const Tensor idx = self.dim() == 0 ? index.reshape({-1}) : index;
  const Tensor from = self.dim() == 0 ? src.reshape({-1}) : src;
  s.put_(scatter_numbers(s, dim, idx, from, "Tensor::scatter_add_"), leading(from, idx), true);
  return self;
}

Tensor plain_scatter_add(const Tensor& self, int64_t dim, const Tensor& index,
                         const Tensor& src) {
  return self.clone().scatter_add_(dim, index, src);
}

// Note [scatter_reduce]: torch 1.13's scatter_reduce, made of the ops above as scatter_add is.
// include_self=false first writes each scattered place a start that changes nothing: 0 for sum
// and mean, 1 for prod, and for amax and amin one of the values landing there (a plain
// scatter; which one wins does not matter, as max(x, x) = x). sum adds with put_'s
// accumulation and mean divides that by the count of values (self's own counted when
// included; floor division on integers, as torch's), so both record through put_ and div_ and
// have torch's gradients. prod, amax and amin combine through the put_reduce kernel
// (order-independent, so repeated indices agree on every device), which records nothing: with
// an input that requires grad they run as one recorded node and self copies its result (Note
// [scatter_reduce gradients] in ops/scatter_reduce_grad.cpp).
// bool runs on int32 (or and and are max and min of 0 and 1), so no kernel needs bool atomics.
Tensor& plain_scatter_reduce_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                              const std::string& reduce, bool include_self) {
  const char* where = "Tensor::scatter_reduce_";
  check_defined(self, where, "self");
  check_defined(src, where, "src");
  const bool add = reduce == "sum" || reduce == "mean";
  TIDE_CHECK(add || reduce == "prod" || reduce == "amax" || reduce == "amin", "[", where,
             "] reduce argument must be either sum, prod, mean, amax or amin, found \"", reduce,
             "\"; pass one of those (torch's max and min are amax and amin here)");
  TIDE_CHECK(src.dtype() == self.dtype(), "[", where, "] scatter(): Expected self.dtype to be "
             "equal to src.dtype (", name(self.dtype()), " and ", name(src.dtype()), "); convert "
             "src with .to(self.dtype)");
  TIDE_CHECK(reduce != "mean" || self.dtype() != kBool, "[", where, "] scatter_reduce(): "
             "reduce=\"mean\" expected a number dtype, found bool (torch: not implemented for "
             "'Bool'); convert self and src to a number dtype first");
  if (self.dtype() == kBool) {
    // or (sum, amax) and and (prod, amin) are max and min on 0 and 1: int32 has GPU atomics.
    Tensor as_int = self.to(kInt32);
    as_int.scatter_reduce_(dim, index, src.to(kInt32),
                           reduce == "sum" || reduce == "amax" ? "amax" : "amin", include_self);
    self.copy_(as_int);
    return self;
  }
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  const Tensor idx = self.dim() == 0 ? index.reshape({-1}) : index;
  const Tensor from = self.dim() == 0 ? src.reshape({-1}) : src;
  const Tensor numbers = scatter_numbers(s, dim, idx, from, where);
  if (!add && GradMode::is_enabled() && (self.requires_grad() || src.requires_grad())) {
    s.copy_(scatter_reduce_recorded(s, dim, idx, from, reduce, include_self));
    return self;
  }
  const Tensor values = leading(from, idx);
  const TensorOptions like = tide::device(self.device()).dtype(self.dtype());
  if (!include_self) {
    if (add || reduce == "prod") {
      s.put_(numbers, full(numbers.sizes(), reduce == "prod" ? 1 : 0, like));
    } else {
      s.put_(numbers, values);
    }
  }
  if (add) {
    s.put_(numbers, values, true);
  } else {
    const kernels::PutReduce op = reduce == "prod"   ? kernels::PutReduce::Prod
                                  : reduce == "amax" ? kernels::PutReduce::Amax
                                                     : kernels::PutReduce::Amin;
    run_kernel(s.device(), where, kernels::put_reduce_stub, s, numbers, values.contiguous(), op);
    s.storage().bump_version();  // Note [Version counters]
  }
  if (reduce == "mean") {
    Tensor count = include_self ? ones_like(s) : ones_like(s).put_(numbers, zeros_like(numbers, like));
    count.put_(numbers, ones_like(numbers, like), true);
    if (is_floating_point(self.dtype())) {
      s.div_(count);
    } else {
      s.div_(count, std::string("floor"));
    }
  }
  return self;
}

Tensor plain_scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& src, const std::string& reduce, bool include_self) {
  return self.clone().scatter_reduce_(dim, index, src, reduce, include_self);
}

Tensor& plain_index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                         Scalar alpha) {
  check_defined(source, "Tensor::index_add_", "source");
  const Tensor numbers = index_numbers(self, dim, index, source, IndexErrorKind::SliceIndex,
                                       "Tensor::index_add_");
  const Tensor scaled = alpha.to_double() == 1.0 ? source : source.mul(alpha);
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  s.put_(numbers, scaled.reshape(numbers.sizes()), true);
  return self;
}

Tensor plain_index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                       Scalar alpha) {
  return self.clone().index_add_(dim, index, source, alpha);
}

Tensor& plain_index_copy_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  check_defined(source, "Tensor::index_copy_", "source");
  const Tensor numbers = index_numbers(self, dim, index, source, IndexErrorKind::SliceIndex,
                                       "Tensor::index_copy_");
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  s.put_(numbers, source.reshape(numbers.sizes()));
  return self;
}

Tensor plain_index_copy(const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& source) {
  return self.clone().index_copy_(dim, index, source);
}

Tensor& plain_index_fill_(Tensor& self, int64_t dim, const Tensor& index, Scalar value) {
  const Tensor numbers = index_numbers(self, dim, index, Tensor(),
                                       IndexErrorKind::AdvancedIndex, "Tensor::index_fill_");
  Tensor s = self.dim() == 0 ? self.reshape({1}) : self;
  s.put_(numbers, full(numbers.sizes(), value, tide::device(self.device()).dtype(self.dtype())));
  return self;
}

Tensor plain_index_fill(const Tensor& self, int64_t dim, const Tensor& index, Scalar value) {
  return self.clone().index_fill_(dim, index, value);
}

}  // namespace tide::detail
