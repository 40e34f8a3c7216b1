// Fills the `cuda` side of the elementwise stubs (Note [Kernel stubs]).

#include "kernels/cuda/elementwise_kernels.h"

#include "kernels/cuda/kernel_registration.h"
#include "kernels/stubs.h"

namespace tide::kernels::cuda {

void register_elementwise_kernels() {
  kernels::binary_stub.cuda = &binary_kernel;
  kernels::binary_scalar_stub.cuda = &binary_scalar_kernel;
  kernels::unary_stub.cuda = &unary_kernel;
  kernels::ternary_stub.cuda = &ternary_kernel;
  kernels::clamp_stub.cuda = &clamp_kernel;
  kernels::where_stub.cuda = &where_kernel;
  kernels::fill_stub.cuda = &fill_kernel;
  kernels::copy_stub.cuda = &copy_kernel;
}

}  // namespace tide::kernels::cuda
