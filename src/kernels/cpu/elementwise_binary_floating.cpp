// The cpu binary kernels of float32 and float64 (Note [Binary kernels by dtype] in
// elementwise_binary_impl.h).

#include "kernels/cpu/elementwise_binary_impl.h"

namespace tide::kernels {

template void binary_kernel_of<float>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                      const Scalar&);
template void binary_scalar_kernel_of<float>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                             bool, const Scalar&);
template void binary_kernel_of<double>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                       const Scalar&);
template void binary_scalar_kernel_of<double>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                              bool, const Scalar&);

}  // namespace tide::kernels
