// Fills the `cuda` side of the reduction, softmax, loss, index, cat and random stubs
// (Note [Kernel stubs]).

#include "kernels/cuda/kernel_registration.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/stubs.h"

namespace tide::kernels::cuda {

void register_reduction_index_random_kernels() {
  kernels::sum_stub.cuda = &sum_cuda;
  kernels::prod_stub.cuda = &prod_cuda;
  kernels::scan_stub.cuda = &scan_cuda;
  kernels::cum_extremum_stub.cuda = &cum_extremum_cuda;
  kernels::sort_stub.cuda = &sort_cuda;
  kernels::search_stub.cuda = &search_cuda;
  kernels::min_max_stub.cuda = &min_max_cuda;
  kernels::softmax_stub.cuda = &softmax_cuda;
  kernels::nll_loss_stub.cuda = &nll_loss_cuda;
  kernels::index_select_stub.cuda = &index_select_cuda;
  kernels::cat_stub.cuda = &cat_cuda;
  kernels::uniform_stub.cuda = &uniform_cuda;
  kernels::normal_stub.cuda = &normal_cuda;
  kernels::randint_stub.cuda = &randint_cuda;
}

}  // namespace tide::kernels::cuda
