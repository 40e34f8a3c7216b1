// Fills the `cuda` side of the advanced indexing stubs (Note [Kernel stubs]).

#include "kernels/cuda/advanced_index_launchers.h"
#include "kernels/cuda/kernel_registration.h"
#include "kernels/stubs.h"

namespace tide::kernels::cuda {

void register_advanced_index_kernels() {
  kernels::index_wrap_stub.cuda = &index_wrap_cuda;
  kernels::take_stub.cuda = &take_cuda;
  kernels::gather_stub.cuda = &gather_cuda;
  kernels::put_stub.cuda = &put_cuda;
  kernels::put_reduce_stub.cuda = &put_reduce_cuda;
  kernels::nonzero_stub.cuda = &nonzero_cuda;
}

}  // namespace tide::kernels::cuda
