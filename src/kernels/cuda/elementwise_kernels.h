#pragma once
// The GPU launchers of the elementwise stubs (kernels/stubs.h): same signatures and semantics
// as the cpu kernels in kernels/cpu/elementwise_kernels.h and kernels/cpu/copy_kernels.h.
// Each enqueues on the current launch's stream (Note [Native launches]) and returns.

#include <optional>

#include "kernels/cpu/elementwise_kernels.h"
#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

// elementwise_binary.cu, elementwise_binary_scalar.cu
void binary_kernel(kernels::BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                   const Scalar& alpha);
void binary_scalar_kernel(kernels::BinaryOp op, const Tensor& out, const Tensor& a,
                          const Scalar& s, bool scalar_first, const Scalar& alpha);

// elementwise_unary.cu
void unary_kernel(kernels::UnaryOp op, const Tensor& out, const Tensor& a);
void clamp_kernel(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo,
                  const std::optional<Scalar>& hi);
void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b);

// elementwise_ternary.cu
void ternary_kernel(kernels::TernaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                    const Tensor& c, const Scalar& param);

// elementwise_copy.cu
void fill_kernel(const Tensor& t, const Scalar& value);
void copy_kernel(const Tensor& dst, const Tensor& src);

}  // namespace tide::kernels::cuda
