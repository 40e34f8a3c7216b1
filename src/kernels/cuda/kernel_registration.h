#pragma once
// Filling the `cuda` side of the kernel stubs (Note [Kernel stubs]); one function per kernel
// family, each defined next to its launchers, all called by backends::register_cuda_kernels()
// (cuda_backend_info.h).

namespace tide::kernels::cuda {

/// binary, binary_scalar, unary, ternary, clamp, where, fill, copy (kernels/cuda/elementwise*.cu).
void register_elementwise_kernels();
/// sum, prod, scan, cum_extremum, sort, search, min_max, softmax, nll_loss, index_select, cat,
/// uniform, normal, randint.
void register_reduction_index_random_kernels();
/// index_add, scatter_dim, nll_loss_backward (kernels/cuda/backward_kernels.cu).
void register_backward_kernels();
/// index_wrap, take, put, nonzero (kernels/cuda/advanced_index_kernels.cu).
void register_advanced_index_kernels();
/// gemm on cuBLAS (kernels/cuda/blas_kernels.cpp).
void register_blas_kernels();
/// max_pool2d, avg_pool2d, adaptive_avg_pool2d and their backward (kernels/cuda/pool_kernels.cu).
void register_pool_kernels();
/// conv2d and its backward kernels on cuDNN (kernels/cuda/cudnn_conv.cpp; builds with cuDNN).
void register_cudnn_kernels();
/// sgd_step, adam_step (kernels/cuda/optim_kernels.cu).
void register_optim_kernels();

}  // namespace tide::kernels::cuda
