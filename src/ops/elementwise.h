#pragma once
// Elementwise front ends that ops.h does not declare: the reflected forms behind
// `Scalar - Tensor` and `Scalar / Tensor`, and helpers the elementwise front ends share.

#include <string>
#include <utility>

#include "ops/op_common.h"
#include "ops/type_promotion.h"
#include "tide/tensor.h"

namespace tide::detail {

/// The op table's detail forms: rsub (other - alpha * self) and rdiv (other / self, true
/// division) behind `Scalar - Tensor` and `Scalar / Tensor`, and the in-place forms behind
/// Tensor::add_ etc. (result dtype castable to self's, as torch).
// @generated begin detail-declarations (scripts/gen_ops.py from src/ops/ops.yaml)
Tensor& neg_(Tensor& self);
Tensor& negative_(Tensor& self);
Tensor& abs_(Tensor& self);
Tensor& absolute_(Tensor& self);
Tensor& exp_(Tensor& self);
Tensor& log_(Tensor& self);
Tensor& sqrt_(Tensor& self);
Tensor& relu_(Tensor& self);
Tensor& sigmoid_(Tensor& self);
Tensor& tanh_(Tensor& self);
Tensor& sin_(Tensor& self);
Tensor& atan2_(Tensor& self, const Tensor& other);
Tensor& arctan2_(Tensor& self, const Tensor& other);
Tensor rdiv(const Tensor& self, Scalar other);
Tensor& add_(Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& add_(Tensor& self, Scalar other, Scalar alpha = 1);
Tensor& sub_(Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& subtract_(Tensor& self, const Tensor& other, Scalar alpha = 1);
Tensor& sub_(Tensor& self, Scalar other, Scalar alpha = 1);
Tensor& subtract_(Tensor& self, Scalar other, Scalar alpha = 1);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& multiply_(Tensor& self, const Tensor& other);
Tensor& mul_(Tensor& self, Scalar other);
Tensor& multiply_(Tensor& self, Scalar other);
Tensor& div_(Tensor& self, const Tensor& other);
Tensor& divide_(Tensor& self, const Tensor& other);
Tensor& true_divide_(Tensor& self, const Tensor& other);
Tensor& div_(Tensor& self, Scalar other);
Tensor& divide_(Tensor& self, Scalar other);
Tensor& true_divide_(Tensor& self, Scalar other);
Tensor& eq_(Tensor& self, const Tensor& other);
Tensor& eq_(Tensor& self, Scalar other);
Tensor& ne_(Tensor& self, const Tensor& other);
Tensor& not_equal_(Tensor& self, const Tensor& other);
Tensor& ne_(Tensor& self, Scalar other);
Tensor& not_equal_(Tensor& self, Scalar other);
Tensor& lt_(Tensor& self, const Tensor& other);
Tensor& less_(Tensor& self, const Tensor& other);
Tensor& lt_(Tensor& self, Scalar other);
Tensor& less_(Tensor& self, Scalar other);
Tensor& le_(Tensor& self, const Tensor& other);
Tensor& less_equal_(Tensor& self, const Tensor& other);
Tensor& le_(Tensor& self, Scalar other);
Tensor& less_equal_(Tensor& self, Scalar other);
Tensor& gt_(Tensor& self, const Tensor& other);
Tensor& greater_(Tensor& self, const Tensor& other);
Tensor& gt_(Tensor& self, Scalar other);
Tensor& greater_(Tensor& self, Scalar other);
Tensor& ge_(Tensor& self, const Tensor& other);
Tensor& greater_equal_(Tensor& self, const Tensor& other);
Tensor& ge_(Tensor& self, Scalar other);
Tensor& greater_equal_(Tensor& self, Scalar other);
Tensor& clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt);
Tensor& clip_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt);
Tensor& lerp_(Tensor& self, const Tensor& end, Scalar weight);
Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& cos_(Tensor& self);
Tensor& tan_(Tensor& self);
Tensor& asin_(Tensor& self);
Tensor& arcsin_(Tensor& self);
Tensor& acos_(Tensor& self);
Tensor& arccos_(Tensor& self);
Tensor& atan_(Tensor& self);
Tensor& arctan_(Tensor& self);
Tensor& sinh_(Tensor& self);
Tensor& cosh_(Tensor& self);
Tensor& asinh_(Tensor& self);
Tensor& arcsinh_(Tensor& self);
Tensor& acosh_(Tensor& self);
Tensor& arccosh_(Tensor& self);
Tensor& atanh_(Tensor& self);
Tensor& arctanh_(Tensor& self);
Tensor& exp2_(Tensor& self);
Tensor& expm1_(Tensor& self);
Tensor& log2_(Tensor& self);
Tensor& log10_(Tensor& self);
Tensor& log1p_(Tensor& self);
Tensor& rsqrt_(Tensor& self);
Tensor& reciprocal_(Tensor& self);
Tensor& erf_(Tensor& self);
Tensor& erfc_(Tensor& self);
Tensor& erfinv_(Tensor& self);
Tensor& sign_(Tensor& self);
Tensor& sgn_(Tensor& self);
Tensor& floor_(Tensor& self);
Tensor& ceil_(Tensor& self);
Tensor& round_(Tensor& self);
Tensor& trunc_(Tensor& self);
Tensor& fix_(Tensor& self);
Tensor& frac_(Tensor& self);
Tensor& square_(Tensor& self);
Tensor& bitwise_not_(Tensor& self);
Tensor& fmod_(Tensor& self, const Tensor& other);
Tensor& fmod_(Tensor& self, Scalar other);
Tensor& remainder_(Tensor& self, const Tensor& other);
Tensor& remainder_(Tensor& self, Scalar other);
Tensor& floor_divide_(Tensor& self, const Tensor& other);
Tensor& floor_divide_(Tensor& self, Scalar other);
Tensor& hypot_(Tensor& self, const Tensor& other);
Tensor& copysign_(Tensor& self, const Tensor& other);
Tensor& copysign_(Tensor& self, Scalar other);
Tensor& bitwise_and_(Tensor& self, const Tensor& other);
Tensor& bitwise_and_(Tensor& self, Scalar other);
Tensor& bitwise_or_(Tensor& self, const Tensor& other);
Tensor& bitwise_or_(Tensor& self, Scalar other);
Tensor& bitwise_xor_(Tensor& self, const Tensor& other);
Tensor& bitwise_xor_(Tensor& self, Scalar other);
Tensor& bitwise_left_shift_(Tensor& self, const Tensor& other);
Tensor& bitwise_left_shift_(Tensor& self, Scalar other);
Tensor& bitwise_right_shift_(Tensor& self, const Tensor& other);
Tensor& bitwise_right_shift_(Tensor& self, Scalar other);
Tensor& logical_and_(Tensor& self, const Tensor& other);
Tensor& logical_or_(Tensor& self, const Tensor& other);
Tensor& logical_xor_(Tensor& self, const Tensor& other);
Tensor& logical_not_(Tensor& self);
Tensor& nan_to_num_(Tensor& self, std::optional<double> nan = std::nullopt,
                    std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt);
Tensor& clamp_(Tensor& self, const Tensor& min, const Tensor& max);
Tensor& clip_(Tensor& self, const Tensor& min, const Tensor& max);
Tensor& clamp_min_(Tensor& self, const Tensor& min);
Tensor& clamp_max_(Tensor& self, const Tensor& max);
Tensor& addcmul_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1);
Tensor& addcdiv_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1);
Tensor& lgamma_(Tensor& self);
Tensor& digamma_(Tensor& self);
Tensor trigamma(const Tensor& self);
Tensor& sinc_(Tensor& self);
Tensor& round_(Tensor& self, int64_t decimals);
Tensor& logit_(Tensor& self, std::optional<double> eps = std::nullopt);
Tensor& div_(Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode);
Tensor& divide_(Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode);
Tensor& div_(Tensor& self, Scalar other, std::optional<std::string> rounding_mode);
Tensor& divide_(Tensor& self, Scalar other, std::optional<std::string> rounding_mode);
Tensor div_trunc(const Tensor& self, const Tensor& other);
Tensor& deg2rad_(Tensor& self);
Tensor& rad2deg_(Tensor& self);
Tensor& float_power_(Tensor& self, const Tensor& exponent);
Tensor& float_power_(Tensor& self, Scalar exponent);
Tensor& ldexp_(Tensor& self, const Tensor& other);
Tensor& xlogy_(Tensor& self, const Tensor& other);
Tensor& heaviside_(Tensor& self, const Tensor& values);
Tensor& gcd_(Tensor& self, const Tensor& other);
Tensor& lcm_(Tensor& self, const Tensor& other);
Tensor& nextafter_(Tensor& self, const Tensor& other);
Tensor& clamp_min_(Tensor& self, Scalar min);
Tensor& clamp_max_(Tensor& self, Scalar max);
Tensor& pow_(Tensor& self, const Tensor& exponent);
Tensor& pow_(Tensor& self, Scalar exponent);
Tensor gelu_erf(const Tensor& self);
Tensor gelu_derivative(const Tensor& self);
// @generated end detail-declarations

/// Where an elementwise plan's result goes: a new tensor, self (in place) or a caller's out.
enum class Dest : int8_t { New, InPlace, Out };

/// The elementwise plans' checks of an in-place or out= destination against the result's shape
/// (out is never resized) and dtype (castable, torch's rule), and for elements sharing memory.
inline void check_destination(Dest dest, const Tensor& target, const DimVector& shape,
                              Dtype result, const char* where);

/// The elementwise plans' last step: a new result becomes `target`; a written destination's
/// version goes up (Note [Version counters]) and it receives a copy when the result was
/// computed elsewhere (in the compute dtype).
inline Tensor& deliver(Dest dest, Tensor& target, Tensor& result) {
  if (dest == Dest::New) {
    target = std::move(result);
    return target;
  }
  target.storage().bump_version();
  if (!result.is_same(target)) target.copy_(result);
  return target;
}

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

inline void check_destination(Dest dest, const Tensor& target, const DimVector& shape,
                              Dtype result, const char* where) {
  TIDE_CHECK(target.shape() == shape, "[", where, "] ",
             dest == Dest::InPlace ? "output with shape " : "out with shape ",
             bracket_shape(target.shape()), " doesn't match the broadcast shape ",
             bracket_shape(shape),
             dest == Dest::InPlace ? "; in-place ops cannot grow self, use the out-of-place op"
                                   : "; allocate out with the broadcast shape (out is never resized)");
  check_can_cast_to_output(result, target.dtype(), where);
  check_no_internal_overlap(target, where);
}

}  // namespace tide::detail
