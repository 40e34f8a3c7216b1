// The cpu binary kernels of bool and the integer dtypes (Note [Binary kernels by dtype] in
// elementwise_binary_impl.h).

#include "kernels/cpu/elementwise_binary_impl.h"

namespace tide::kernels {

template void binary_kernel_of<bool>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                     const Scalar&);
template void binary_scalar_kernel_of<bool>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                            bool, const Scalar&);
template void binary_kernel_of<uint8_t>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                        const Scalar&);
template void binary_scalar_kernel_of<uint8_t>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                               bool, const Scalar&);
template void binary_kernel_of<int32_t>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                        const Scalar&);
template void binary_scalar_kernel_of<int32_t>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                               bool, const Scalar&);
template void binary_kernel_of<int64_t>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                        const Scalar&);
template void binary_scalar_kernel_of<int64_t>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                               bool, const Scalar&);

}  // namespace tide::kernels
