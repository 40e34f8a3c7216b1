// Tensor's comparison operators (Note [Comparison operators and C++20] in tide/tensor.h):
// forwards to the free ops. A scalar on the left flips the comparison: 2 < a is a > 2.

#include "tide/ops.h"

namespace tide {

Tensor operator==(const Tensor& a, const Tensor& b) { return eq(a, b); }
Tensor operator==(const Tensor& a, Scalar b) { return eq(a, b); }
Tensor operator==(Scalar a, const Tensor& b) { return eq(b, a); }
Tensor operator!=(const Tensor& a, const Tensor& b) { return ne(a, b); }
Tensor operator!=(const Tensor& a, Scalar b) { return ne(a, b); }
Tensor operator!=(Scalar a, const Tensor& b) { return ne(b, a); }
Tensor operator<(const Tensor& a, const Tensor& b) { return lt(a, b); }
Tensor operator<(const Tensor& a, Scalar b) { return lt(a, b); }
Tensor operator<(Scalar a, const Tensor& b) { return gt(b, a); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return le(a, b); }
Tensor operator<=(const Tensor& a, Scalar b) { return le(a, b); }
Tensor operator<=(Scalar a, const Tensor& b) { return ge(b, a); }
Tensor operator>(const Tensor& a, const Tensor& b) { return gt(a, b); }
Tensor operator>(const Tensor& a, Scalar b) { return gt(a, b); }
Tensor operator>(Scalar a, const Tensor& b) { return lt(b, a); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return ge(a, b); }
Tensor operator>=(const Tensor& a, Scalar b) { return ge(a, b); }
Tensor operator>=(Scalar a, const Tensor& b) { return le(b, a); }

Tensor operator~(const Tensor& a) {
  TIDE_CHECK(a.defined(), "[operator~] expected a defined tensor, but got an undefined one");
  // On bool, torch's bitwise_not is logical not: a == false computes it with one kernel.
  TIDE_CHECK(a.dtype() == kBool, "[operator~] expected a bool tensor (tide implements ~ as "
             "logical not only), but got ", name(a.dtype()), "; for a mask compare first "
             "(~(a > 0)), or use a == 0");
  return eq(a, false);
}

}  // namespace tide
