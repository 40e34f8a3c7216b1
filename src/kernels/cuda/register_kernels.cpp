#include "kernels/cuda/kernel_registration.h"
#include "backends/cuda_backend_info.h"

namespace tide::backends {

void register_cuda_kernels() {
  kernels::cuda::register_elementwise_kernels();
  kernels::cuda::register_reduction_index_random_kernels();
  kernels::cuda::register_backward_kernels();
  kernels::cuda::register_advanced_index_kernels();
  kernels::cuda::register_blas_kernels();
  kernels::cuda::register_optim_kernels();
  kernels::cuda::register_pool_kernels();
#if defined(TIDE_HAVE_CUDNN)
  kernels::cuda::register_cudnn_kernels();
#endif
}

}  // namespace tide::backends
