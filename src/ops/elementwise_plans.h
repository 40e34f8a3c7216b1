#pragma once
// The hand-written front ends ("plans") that the op table's generated front ends call
// (Note [Op entry] in ops/op_entry.h; `plan:` in src/ops/ops.yaml). `where` is the op's name as
// errors and provenance give it ("sigmoid", "Tensor::add_", "add_out"); it must be a string
// literal (run_kernel keeps the pointer).

#include <initializer_list>

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

/// plan unary_*, in place (Tensor::sin_): the result must be castable to self's dtype (an
/// integer self of a to-float op raises torch's "result type Float can't be cast ...").
Tensor& unary_inplace(kernels::UnaryOp op, Tensor& self, bool to_float, const char* where,
                      const char* bool_error);
/// plan unary_*, into out (self's shape, never resized; a castable dtype receives a copy).
Tensor& unary_out(kernels::UnaryOp op, Tensor& out, const Tensor& self, bool to_float,
                  const char* where, const char* bool_error);

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

/// plan pointwise (Note [Pointwise plan] in ops/pointwise.cpp): the kernel of an op over 2 or 3
/// tensors, a BinaryOp (with the op's Scalar as alpha) or a TernaryOp.
struct PointwiseKernel {
  PointwiseKernel(kernels::BinaryOp op) : binary(op), arity(2) {}
  PointwiseKernel(kernels::TernaryOp op) : ternary(op), arity(3) {}
  kernels::BinaryOp binary{};
  kernels::TernaryOp ternary{};
  int arity;
};

/// A pointwise op's dtype rule (`result:` in the table): torch's promotion over the tensors
/// (Promote), with out of that dtype only (PromoteAll: addcmul, addcdiv, whose torch kernels
/// cannot cast); the same, with integer/bool operands computed in the default dtype (Float);
/// every tensor of self's dtype, torch checks and does not promote (Same: lerp.Scalar), and out
/// too (SameAll: lerp.Tensor, TensorIterator's check_all_same_dtype).
enum class PointwiseDtype : int8_t { Promote, PromoteAll, Float, Same, SameAll };

/// plan pointwise into a new tensor: kernel(inputs..., param).
Tensor pointwise(PointwiseKernel kernel, std::initializer_list<const Tensor*> inputs,
                 const Scalar& param, PointwiseDtype rule, const char* where);
/// plan pointwise in place: inputs' first is self, written with the result.
Tensor& pointwise_inplace(PointwiseKernel kernel, Tensor& self,
                          std::initializer_list<const Tensor*> inputs, const Scalar& param,
                          PointwiseDtype rule, const char* where);
/// plan pointwise into out (of the broadcast shape; never resized).
Tensor& pointwise_out(PointwiseKernel kernel, Tensor& out,
                      std::initializer_list<const Tensor*> inputs, const Scalar& param,
                      PointwiseDtype rule, const char* where);

}  // namespace tide::detail
