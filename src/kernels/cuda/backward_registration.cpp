// Fills the `cuda` side of the backward stubs (Note [Kernel stubs]).

#include "kernels/cuda/backward_launchers.h"
#include "kernels/cuda/kernel_registration.h"
#include "kernels/stubs.h"

namespace tide::kernels::cuda {

void register_backward_kernels() {
  kernels::index_add_stub.cuda = &index_add_cuda;
  kernels::scatter_dim_stub.cuda = &scatter_dim_cuda;
  kernels::nll_loss_backward_stub.cuda = &nll_loss_backward_cuda;
}

}  // namespace tide::kernels::cuda
