#pragma once
// The cpu binary kernels of one dtype, compiled by dtype family in their own translation units
// (elementwise_binary_{floating,integral,reduced}.cpp) so that they build in parallel; the
// dtype dispatch (elementwise_binary_kernels.cpp) calls them through these declarations.

#include <cstdint>

#include "kernels/cpu/elementwise_kernels.h"
#include "tide/half.h"

namespace tide::kernels {

/// binary_kernel for a and b of storage type T.
template <class T>
void binary_kernel_of(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                      const Scalar& alpha);

/// binary_scalar_kernel for a of storage type T.
template <class T>
void binary_scalar_kernel_of(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& s,
                             bool scalar_first, const Scalar& alpha);

extern template void binary_kernel_of<float>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                             const Scalar&);
extern template void binary_kernel_of<double>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                              const Scalar&);
extern template void binary_kernel_of<bool>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                            const Scalar&);
extern template void binary_kernel_of<uint8_t>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                               const Scalar&);
extern template void binary_kernel_of<int32_t>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                               const Scalar&);
extern template void binary_kernel_of<int64_t>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                               const Scalar&);
extern template void binary_kernel_of<Half>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                            const Scalar&);
extern template void binary_kernel_of<BFloat16>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                                const Scalar&);

extern template void binary_scalar_kernel_of<float>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                    bool, const Scalar&);
extern template void binary_scalar_kernel_of<double>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                     bool, const Scalar&);
extern template void binary_scalar_kernel_of<bool>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                   bool, const Scalar&);
extern template void binary_scalar_kernel_of<uint8_t>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                      bool, const Scalar&);
extern template void binary_scalar_kernel_of<int32_t>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                      bool, const Scalar&);
extern template void binary_scalar_kernel_of<int64_t>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                      bool, const Scalar&);
extern template void binary_scalar_kernel_of<Half>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                   bool, const Scalar&);
extern template void binary_scalar_kernel_of<BFloat16>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                       bool, const Scalar&);

}  // namespace tide::kernels
