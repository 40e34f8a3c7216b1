#pragma once
// Filling the `cuda` side of the kernel stubs (Note [Kernel stubs]); one function per kernel
// family, each defined next to its launchers, all called by backends::register_cuda_kernels()
// (cuda_backend_info.h).

namespace tide::backends::cuda {

/// binary, binary_scalar, unary, clamp, where, fill, copy (backends/cuda/elementwise*.cu).
void register_elementwise_kernels();
/// sum, min_max, softmax, nll_loss, index_select, cat, uniform, normal, randint.
void register_reduction_index_random_kernels();
/// gemm on cuBLAS (backends/cuda/blas*.cu/cpp).
void register_blas_kernels();
/// sgd_step, adam_step (backends/cuda/optim_kernels.cu).
void register_optim_kernels();

}  // namespace tide::backends::cuda
