// The cpu binary kernels of float16 and bfloat16 (Note [Binary kernels by dtype] in
// elementwise_binary_impl.h).

#include "kernels/cpu/elementwise_binary_impl.h"

namespace tide::kernels {

template void binary_kernel_of<Half>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                     const Scalar&);
template void binary_scalar_kernel_of<Half>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                            bool, const Scalar&);
template void binary_kernel_of<BFloat16>(BinaryOp, const Tensor&, const Tensor&, const Tensor&,
                                         const Scalar&);
template void binary_scalar_kernel_of<BFloat16>(BinaryOp, const Tensor&, const Tensor&, const Scalar&,
                                                bool, const Scalar&);

}  // namespace tide::kernels
