// Tensor's elementwise methods and operators: thin forwards to the free ops (tide/ops.h) and
// their in-place forms (ops/elementwise.h), so each op has one front end.

#include "ops/elementwise.h"
#include "tide/ops.h"
#include "tide/tensor.h"

namespace tide {

Tensor Tensor::add(const Tensor& other, Scalar alpha) const { return tide::add(*this, other, alpha); }
Tensor Tensor::add(Scalar other, Scalar alpha) const { return tide::add(*this, other, alpha); }
Tensor Tensor::sub(const Tensor& other, Scalar alpha) const { return tide::sub(*this, other, alpha); }
Tensor Tensor::sub(Scalar other, Scalar alpha) const { return tide::sub(*this, other, alpha); }
Tensor Tensor::mul(const Tensor& other) const { return tide::mul(*this, other); }
Tensor Tensor::mul(Scalar other) const { return tide::mul(*this, other); }
Tensor Tensor::div(const Tensor& other) const { return tide::div(*this, other); }
Tensor Tensor::div(Scalar other) const { return tide::div(*this, other); }

Tensor& Tensor::add_(const Tensor& other, Scalar alpha) { return detail::add_(*this, other, alpha); }
Tensor& Tensor::add_(Scalar other, Scalar alpha) { return detail::add_(*this, other, alpha); }
Tensor& Tensor::sub_(const Tensor& other, Scalar alpha) { return detail::sub_(*this, other, alpha); }
Tensor& Tensor::sub_(Scalar other, Scalar alpha) { return detail::sub_(*this, other, alpha); }
Tensor& Tensor::mul_(const Tensor& other) { return detail::mul_(*this, other); }
Tensor& Tensor::mul_(Scalar other) { return detail::mul_(*this, other); }
Tensor& Tensor::div_(const Tensor& other) { return detail::div_(*this, other); }
Tensor& Tensor::div_(Scalar other) { return detail::div_(*this, other); }

Tensor Tensor::pow(const Tensor& exponent) const { return tide::pow(*this, exponent); }
Tensor Tensor::pow(Scalar exponent) const { return tide::pow(*this, exponent); }
Tensor Tensor::maximum(const Tensor& other) const { return tide::maximum(*this, other); }
Tensor Tensor::minimum(const Tensor& other) const { return tide::minimum(*this, other); }
Tensor Tensor::eq(const Tensor& other) const { return tide::eq(*this, other); }
Tensor Tensor::eq(Scalar other) const { return tide::eq(*this, other); }
Tensor Tensor::ne(const Tensor& other) const { return tide::ne(*this, other); }
Tensor Tensor::ne(Scalar other) const { return tide::ne(*this, other); }
Tensor Tensor::lt(const Tensor& other) const { return tide::lt(*this, other); }
Tensor Tensor::lt(Scalar other) const { return tide::lt(*this, other); }
Tensor Tensor::le(const Tensor& other) const { return tide::le(*this, other); }
Tensor Tensor::le(Scalar other) const { return tide::le(*this, other); }
Tensor Tensor::gt(const Tensor& other) const { return tide::gt(*this, other); }
Tensor Tensor::gt(Scalar other) const { return tide::gt(*this, other); }
Tensor Tensor::ge(const Tensor& other) const { return tide::ge(*this, other); }
Tensor Tensor::ge(Scalar other) const { return tide::ge(*this, other); }
/// torch's Tensor.where(condition, other): self where condition, else other.
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return tide::where(condition, *this, other);
}
Tensor Tensor::clamp(std::optional<Scalar> min, std::optional<Scalar> max) const {
  return tide::clamp(*this, min, max);
}
Tensor Tensor::neg() const { return tide::neg(*this); }
Tensor Tensor::abs() const { return tide::abs(*this); }
Tensor Tensor::exp() const { return tide::exp(*this); }
Tensor Tensor::log() const { return tide::log(*this); }
Tensor Tensor::sqrt() const { return tide::sqrt(*this); }
Tensor Tensor::relu() const { return tide::relu(*this); }
Tensor Tensor::sigmoid() const { return tide::sigmoid(*this); }
Tensor Tensor::tanh() const { return tide::tanh(*this); }

Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator+(const Tensor& a, Scalar b) { return add(a, b); }
Tensor operator+(Scalar a, const Tensor& b) { return add(b, a); }
Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
Tensor operator-(const Tensor& a, Scalar b) { return sub(a, b); }
Tensor operator-(Scalar a, const Tensor& b) { return detail::rsub(b, a); }
Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor operator*(const Tensor& a, Scalar b) { return mul(a, b); }
Tensor operator*(Scalar a, const Tensor& b) { return mul(b, a); }
Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor operator/(const Tensor& a, Scalar b) { return div(a, b); }
Tensor operator/(Scalar a, const Tensor& b) { return detail::rdiv(b, a); }
Tensor operator-(const Tensor& a) { return neg(a); }
Tensor& operator+=(Tensor& a, const Tensor& b) { return a.add_(b); }
Tensor& operator+=(Tensor& a, Scalar b) { return a.add_(b); }
Tensor& operator-=(Tensor& a, const Tensor& b) { return a.sub_(b); }
Tensor& operator-=(Tensor& a, Scalar b) { return a.sub_(b); }
Tensor& operator*=(Tensor& a, const Tensor& b) { return a.mul_(b); }
Tensor& operator*=(Tensor& a, Scalar b) { return a.mul_(b); }
Tensor& operator/=(Tensor& a, const Tensor& b) { return a.div_(b); }
Tensor& operator/=(Tensor& a, Scalar b) { return a.div_(b); }

}  // namespace tide
