#pragma once
// The hand-written front ends ("plans") that the op table's generated front ends call
// (Note [Op entry] in ops/op_entry.h; `plan:` in src/ops/ops.yaml). `where` is the op's name as
// errors and provenance give it ("sigmoid", "Tensor::add_", "add_out"); it must be a string
// literal (run_kernel keeps the pointer).

#include "kernels/cpu/elementwise_kernels.h"
#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::detail {

/// plan unary_same: op(self) in self's dtype; a bool input raises "[where] bool_error" unless
/// bool_error is null.
Tensor unary_same(kernels::UnaryOp op, const Tensor& self, const char* where,
                  const char* bool_error);

/// plan unary_float: op(self); integer and bool inputs compute in the default dtype, as torch.
Tensor unary_float(kernels::UnaryOp op, const Tensor& self, const char* where);

/// One operand of a binary op as the caller passed it: a tensor or a Scalar.
struct BinaryArg {
  BinaryArg(const Tensor& t) : tensor(&t) {}
  BinaryArg(const Scalar& s) : tensor(nullptr), scalar(s) {}
  const Tensor* tensor;
  Scalar scalar;
};

/// plan binary (Note [Binary front end] in ops/binary.cpp), into a new tensor: a op b, with
/// alpha for Add and Sub (a ± alpha * b).
Tensor binary(kernels::BinaryOp op, const BinaryArg& a, const BinaryArg& b, const Scalar& alpha,
              const char* where);
/// plan binary, in place: self = self op other (the result dtype must be castable to self's).
Tensor& binary_inplace(kernels::BinaryOp op, Tensor& self, const BinaryArg& other,
                       const Scalar& alpha, const char* where);
/// plan binary, into out (of the broadcast shape; never resized).
Tensor& binary_out(kernels::BinaryOp op, Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha, const char* where);

}  // namespace tide::detail
