// isnan, isinf, isfinite, nan_to_num(_) and logical_not(_): compositions of the comparison and
// where plans (the op table's `plan: explicit`, `autograd: none`: the ops inside record, so
// nan_to_num's gradient reaches the elements it keeps, as torch's grad * isfinite(self)).
// Integer and bool tensors hold no NaN or infinity.

#include <limits>
#include <optional>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The largest finite value of a floating dtype: nan_to_num's default for +inf.
double largest(Dtype dtype) {
  switch (dtype) {
    case kFloat16: return 65504.0;
    case kBFloat16: return 3.3895313892515355e38;
    case kFloat32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

}  // namespace

Tensor plain_isnan(const Tensor& self) {
  check_defined(self, "isnan", "input");
  return ne(self, self);  // NaN is the only value unequal to itself; false for integers
}

Tensor plain_isinf(const Tensor& self) {
  check_defined(self, "isinf", "input");
  if (!is_floating_point(self.dtype())) return ne(self, self);
  return eq(abs(self), kInf);
}

Tensor plain_isfinite(const Tensor& self) {
  check_defined(self, "isfinite", "input");
  if (!is_floating_point(self.dtype())) return eq(self, self);
  return logical_and(eq(self, self), ne(abs(self), kInf));
}

Tensor plain_nan_to_num(const Tensor& self, std::optional<double> nan,
                        std::optional<double> posinf, std::optional<double> neginf) {
  check_defined(self, "nan_to_num", "input");
  if (!is_floating_point(self.dtype())) return self.clone();
  const double big = largest(self.dtype());
  Tensor r = where(isnan(self), nan.value_or(0.0), self);
  r = where(eq(self, kInf), posinf.value_or(big), r);
  return where(eq(self, -kInf), neginf.value_or(-big), r);
}

Tensor plain_logical_not(const Tensor& self) {
  check_defined(self, "logical_not", "input");
  return eq(self, 0);
}

// The in-place forms write the composition's result back (bool to self's dtype for
// logical_not_, as torch's 1 and 0).
Tensor& plain_nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  check_defined(self, "Tensor::nan_to_num_", "input");
  if (!is_floating_point(self.dtype())) return self;
  return self.copy_(plain_nan_to_num(self, nan, posinf, neginf));
}

Tensor& plain_logical_not_(Tensor& self) {
  check_defined(self, "Tensor::logical_not_", "input");
  return self.copy_(eq(self, 0));
}

}  // namespace tide::detail
