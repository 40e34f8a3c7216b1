// Fills the `cuda` side of the backward stubs (Note [Kernel stubs]).

#include "backends/cuda/backward_launchers.h"
#include "backends/cuda/kernel_registration.h"
#include "kernels/stubs.h"

namespace tide::backends::cuda {

void register_backward_kernels() {
  kernels::index_add_stub.cuda = &index_add_cuda;
  kernels::scatter_dim_stub.cuda = &scatter_dim_cuda;
  kernels::nll_loss_backward_stub.cuda = &nll_loss_backward_cuda;
}

}  // namespace tide::backends::cuda
