// Issue 25's pointwise ops that are compositions of recorded ops (the op table's `plan:
// explicit`, `autograd: composite`): round(decimals), logit, div(rounding_mode), deg2rad,
// rad2deg, float_power, ldexp, clamp_min/clamp_max with a Scalar, and the tests signbit,
// isposinf, isneginf. Each computes what torch 1.13's cpu kernel computes, in the same order
// and dtype, so results agree to the bit; their gradients come from their parts. The in-place
// forms run the in-place parts, so they record as in-place ops too.

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "kernels/cpu/elementwise_kernels.h"
#include "ops/elementwise.h"
#include "ops/elementwise_plans.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "ops/type_promotion.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPiOver180 = 0.017453292519943295;   // torch's M_PI_180
constexpr double k180OverPi = 57.295779513082320876798154814105;

/// round's 10^|decimals|, refused for integer tensors as torch's "round_cpu" kernel.
double round_scale(const Tensor& self, int64_t decimals, const char* where) {
  check_defined(self, where, "input");
  TIDE_CHECK(is_floating_point(self.dtype()), "[", where, "] \"round_cpu\" not implemented for '",
             torch_type_name(self.dtype()),
             "'; round integers with decimals=0, or convert the tensor to a float dtype first");
  return std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals));
}

enum class RoundingMode { True, Trunc, Floor };

RoundingMode rounding_mode_of(const std::optional<std::string>& mode, const char* where) {
  if (!mode) return RoundingMode::True;
  if (*mode == "trunc") return RoundingMode::Trunc;
  if (*mode == "floor") return RoundingMode::Floor;
  TIDE_CHECK(false, "[", where,
             "] div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
             *mode, "'");
  return RoundingMode::True;
}

/// div with a rounding mode, other a Tensor or a Scalar: trunc's own kernel, floor_divide's,
/// or true division.
template <class Other>
Tensor div_with_mode(const Tensor& self, const Other& other,
                     const std::optional<std::string>& mode) {
  switch (rounding_mode_of(mode, "div")) {
    case RoundingMode::Trunc: return binary(kernels::BinaryOp::DivTrunc, self, other, 1, "div");
    case RoundingMode::Floor: return floor_divide(self, other);
    case RoundingMode::True: break;
  }
  return div(self, other);
}

template <class Other>
Tensor& div_with_mode_(Tensor& self, const Other& other,
                       const std::optional<std::string>& mode) {
  switch (rounding_mode_of(mode, "Tensor::div_")) {
    case RoundingMode::Trunc:
      return binary_inplace(kernels::BinaryOp::DivTrunc, self, other, 1, "Tensor::div_");
    case RoundingMode::Floor: return floor_divide_(self, other);
    case RoundingMode::True: break;
  }
  return div_(self, other);
}

void check_float_power_base(const Tensor& self) {
  TIDE_CHECK(self.dtype() == kFloat64, "[Tensor::float_power_] the base given to float_power_ has "
             "dtype ", torch_type_name(self.dtype()),
             " but the operation's result requires dtype Double; convert it with .double() first");
}

}  // namespace

// torch: nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for negative d.
Tensor plain_round(const Tensor& self, int64_t decimals) {
  if (decimals == 0) return round(self);
  const double scale = round_scale(self, decimals, "round");
  return decimals > 0 ? div(round(mul(self, scale)), scale) : mul(round(div(self, scale)), scale);
}

Tensor& plain_round_(Tensor& self, int64_t decimals) {
  if (decimals == 0) return self.round_();
  const double scale = round_scale(self, decimals, "Tensor::round_");
  return decimals > 0 ? self.mul_(scale).round_().div_(scale)
                      : self.div_(scale).round_().mul_(scale);
}

// torch: log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given.
Tensor plain_logit(const Tensor& self, std::optional<double> eps) {
  check_defined(self, "logit", "input");
  Tensor x = is_floating_point(self.dtype()) ? self : self.to(get_default_dtype());
  if (eps) x = clamp(x, *eps, 1.0 - *eps);
  return log(div(x, rsub(x, 1)));
}

Tensor& plain_logit_(Tensor& self, std::optional<double> eps) {
  check_defined(self, "Tensor::logit_", "input");
  check_can_cast_to_output(get_default_dtype(), self.dtype(), "Tensor::logit_");
  if (eps) self.clamp_(*eps, 1.0 - *eps);
  const Tensor one_minus = rsub(self, 1);
  return self.div_(one_minus).log_();
}

Tensor plain_div(const Tensor& self, const Tensor& other,
                 std::optional<std::string> rounding_mode) {
  return div_with_mode(self, other, rounding_mode);
}

Tensor plain_div(const Tensor& self, Scalar other, std::optional<std::string> rounding_mode) {
  return div_with_mode(self, other, rounding_mode);
}

Tensor& plain_div_(Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode) {
  return div_with_mode_(self, other, rounding_mode);
}

Tensor& plain_div_(Tensor& self, Scalar other, std::optional<std::string> rounding_mode) {
  return div_with_mode_(self, other, rounding_mode);
}

Tensor plain_deg2rad(const Tensor& self) { return mul(self, kPiOver180); }
Tensor& plain_deg2rad_(Tensor& self) { return self.mul_(kPiOver180); }
Tensor plain_rad2deg(const Tensor& self) { return mul(self, k180OverPi); }
Tensor& plain_rad2deg_(Tensor& self) { return self.mul_(k180OverPi); }

// torch: both operands in float64, whatever their dtypes.
Tensor plain_float_power(const Tensor& self, const Tensor& exponent) {
  return pow(self.to(kFloat64), exponent.to(kFloat64));
}

Tensor plain_float_power(const Tensor& self, Scalar exponent) {
  return pow(self.to(kFloat64), Scalar(exponent.to_double()));
}

Tensor& plain_float_power_(Tensor& self, const Tensor& exponent) {
  check_float_power_base(self);
  return self.pow_(exponent.to(kFloat64));
}

Tensor& plain_float_power_(Tensor& self, Scalar exponent) {
  check_float_power_base(self);
  return self.pow_(Scalar(exponent.to_double()));
}

// torch: self * 2^other.
Tensor plain_ldexp(const Tensor& self, const Tensor& other) { return mul(self, pow(2.0, other)); }
Tensor& plain_ldexp_(Tensor& self, const Tensor& other) { return self.mul_(pow(2.0, other)); }

Tensor plain_clamp_min(const Tensor& self, Scalar min) { return clamp(self, min, std::nullopt); }
Tensor& plain_clamp_min_(Tensor& self, Scalar min) { return self.clamp_(min, std::nullopt); }
Tensor plain_clamp_max(const Tensor& self, Scalar max) { return clamp(self, std::nullopt, max); }
Tensor& plain_clamp_max_(Tensor& self, Scalar max) { return self.clamp_(std::nullopt, max); }

// The sign bit, so -0.0 is negative and NaN follows its sign, as std::signbit.
Tensor plain_signbit(const Tensor& self) {
  check_defined(self, "signbit", "input");
  if (!is_floating_point(self.dtype())) return lt(self, 0);
  return lt(copysign(ones_like(self), self), 0);
}

Tensor plain_isposinf(const Tensor& self) {
  check_defined(self, "isposinf", "input");
  return is_floating_point(self.dtype()) ? eq(self, kInf) : ne(self, self);
}

Tensor plain_isneginf(const Tensor& self) {
  check_defined(self, "isneginf", "input");
  return is_floating_point(self.dtype()) ? eq(self, -kInf) : ne(self, self);
}

Tensor plain_positive(const Tensor& self) {
  check_defined(self, "positive", "input");
  TIDE_CHECK(self.dtype() != kBool, "[positive] The `+` operator, on a bool tensor is not "
             "supported.");
  return self;
}

}  // namespace tide::detail
