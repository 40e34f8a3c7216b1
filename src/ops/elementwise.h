#pragma once
// Elementwise front ends that ops.h does not declare: the reflected forms behind
// `Scalar - Tensor` and `Scalar / Tensor`, and helpers the elementwise front ends share.

#include <string>

#include "ops/op_common.h"
#include "tide/tensor.h"

namespace tide::detail {

/// The op table's detail forms: rsub (other - alpha * self) and rdiv (other / self, true
/// division) behind `Scalar - Tensor` and `Scalar / Tensor`, and the in-place forms behind
/// Tensor::add_ etc. (result dtype castable to self's, as torch).
// @generated begin detail-declarations (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor rsub(const Tensor& self, Scalar other, Scalar alpha = 1);
Tensor rdiv(const Tensor& self, Scalar other);
Tensor& add_(Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& add_(Tensor& self, Scalar other, Scalar alpha = 1);
Tensor& sub_(Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& sub_(Tensor& self, Scalar other, Scalar alpha = 1);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& mul_(Tensor& self, Scalar other);
Tensor& div_(Tensor& self, const Tensor& other);
Tensor& div_(Tensor& self, Scalar other);
Tensor gelu_erf(const Tensor& self);
Tensor gelu_derivative(const Tensor& self);
// @generated end detail-declarations

/// `t` viewed with `shape` (stride 0 along broadcast dims); `t` itself when the shape matches.
/// `shape` must be a broadcast of t's shape (checked by broadcast_shapes beforehand).
inline Tensor broadcast_to(const Tensor& t, const DimVector& shape) {
  if (t.shape() == shape) return t;
  const int64_t nd = shape.size(), lead = nd - t.dim();
  DimVector strides(nd);
  for (int64_t i = 0; i < nd; ++i) {
    int64_t src = i - lead;
    strides[i] = src < 0 || t.shape()[src] != shape[i] ? 0 : t.stride_vector()[src];
  }
  return Tensor(t.storage(), t.dtype(), shape, std::move(strides), t.storage_offset());
}

/// torch's "[2, 3]" spelling of a shape, used where its messages use it.
inline std::string bracket_shape(const DimVector& shape) {
  std::string s = "[";
  for (int64_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

/// Raises torch's error when a written-to tensor has several elements at one address
/// (an expanded tensor), which an elementwise write would race on.
inline void check_no_internal_overlap(const Tensor& out, const char* where) {
  for (int64_t d = 0; d < out.dim(); ++d) {
    TIDE_CHECK(out.stride_vector()[d] != 0 || out.shape()[d] <= 1, "[", where,
               "] unsupported operation: more than one element of the written-to tensor refers "
               "to a single memory location. Please clone() the tensor before performing the "
               "operation.");
  }
}

/// Raises torch's error when `in` partially overlaps `out` (same memory, different positions),
/// where an elementwise write would clobber inputs not yet read. Exact aliasing is fine.
/// Like torch, only dense (here: contiguous) tensors are compared; others are not checked.
inline void check_no_partial_overlap(const Tensor& out, const Tensor& in, const char* where) {
  if (!in.defined() || !out.storage().is_alias_of(in.storage())) return;
  if (!out.is_contiguous() || !in.is_contiguous() || out.numel() == 0 || in.numel() == 0) return;
  const char* ob = static_cast<const char*>(out.raw_data());
  const char* ib = static_cast<const char*>(in.raw_data());
  const char* oe = ob + out.nbytes();
  const char* ie = ib + in.nbytes();
  const bool same = ob == ib && oe == ie;
  TIDE_CHECK(same || oe <= ib || ie <= ob, "[", where,
             "] unsupported operation: some elements of the input tensor and the written-to "
             "tensor refer to a single memory location. Please clone() the tensor before "
             "performing the operation.");
}

}  // namespace tide::detail
