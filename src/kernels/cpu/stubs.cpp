// The cpu side of every kernel stub (Note [Kernel stubs]).

#include "kernels/stubs.h"

#include "kernels/conv_stubs.h"
#include "kernels/cpu/advanced_index_kernels.h"
#include "kernels/cpu/backward_kernels.h"
#include "kernels/cpu/copy_kernels.h"
#include "kernels/cpu/gemm.h"
#include "kernels/cpu/index_kernels.h"
#include "kernels/cpu/random_kernels.h"
#include "kernels/cpu/shape_kernels.h"
#include "kernels/cpu/softmax_kernels.h"
#include "runtime/kernel_error_report.h"
#include "tide/detail/build_config.h"

namespace tide::kernels {
namespace {

/// A bad index found by a cpu loop: tide::Error at the call on cpu; inside a simulated
/// stream's task, a failure recorded for the next synchronizing call (Note [Index errors in
/// kernels]).
void report(const Tensor& out, IndexErrorKind kind, const IndexError& bad, int64_t aux) {
  const std::string message = index_error_message(kind, bad, aux);
  if (out.device().is_cpu()) {
    // Bounds errors that torch raises as Python's IndexError (gather's and scatter's are
    // RuntimeErrors there).
    if (kind == IndexErrorKind::AdvancedIndex || kind == IndexErrorKind::Take ||
        kind == IndexErrorKind::SliceIndex) {
      throw IndexingError(message);
    }
    throw Error(message);
  }
  runtime::record_kernel_error(message);
}

void nll_loss_cpu(const Tensor& out, const Tensor& input, const Tensor& target,
                  const Tensor& weight, LossReduction r, int64_t ignore_index) {
  const IndexError bad = nll_loss_kernel(out, input, target, weight, r, ignore_index);
  if (bad.found()) report(out, IndexErrorKind::NllLossTarget, bad, ignore_index);
}

void index_select_cpu(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim) {
  const IndexError bad = index_select_kernel(out, in, index, dim);
  if (bad.found()) report(out, IndexErrorKind::IndexSelect, bad, dim);
}

void index_wrap_cpu(const Tensor& out, const Tensor& index, int64_t size, IndexErrorKind kind,
                    int64_t aux) {
  const IndexError bad = index_wrap_kernel(out, index, size, negative_indices_wrap(kind));
  if (bad.found()) report(out, kind, bad, aux);
}

void gather_cpu(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim) {
  const IndexError bad = gather_kernel(out, in, index, dim);
  if (bad.found()) report(out, IndexErrorKind::DimIndex, bad, dim);
}

}  // namespace

decltype(binary_stub) binary_stub{&binary_kernel};
decltype(binary_scalar_stub) binary_scalar_stub{&binary_scalar_kernel};
decltype(unary_stub) unary_stub{&unary_kernel};
decltype(ternary_stub) ternary_stub{&ternary_kernel};
decltype(clamp_stub) clamp_stub{&clamp_kernel};
decltype(where_stub) where_stub{&where_kernel};
decltype(fill_stub) fill_stub{&fill_kernel};
decltype(copy_stub) copy_stub{&copy_kernel};
decltype(sum_stub) sum_stub{&sum_kernel};
decltype(prod_stub) prod_stub{&prod_kernel};
decltype(scan_stub) scan_stub{&scan_kernel};
// values and indices are both outputs.
decltype(cum_extremum_stub) cum_extremum_stub{&cum_extremum_kernel, nullptr, 0b11};
decltype(sort_stub) sort_stub{&sort_kernel, nullptr, 0b11};
decltype(search_stub) search_stub{&search_kernel};
// values and indices are both outputs.
decltype(min_max_stub) min_max_stub{&min_max_kernel, nullptr, 0b11};
decltype(softmax_stub) softmax_stub{&softmax_kernel};
decltype(nll_loss_stub) nll_loss_stub{&nll_loss_cpu};
decltype(index_select_stub) index_select_stub{&index_select_cpu};
decltype(cat_stub) cat_stub{&cat_kernel};
decltype(index_wrap_stub) index_wrap_stub{&index_wrap_cpu};
decltype(take_stub) take_stub{&take_kernel};
decltype(gather_stub) gather_stub{&gather_cpu};
// put writes self (operand 0) in place.
decltype(put_stub) put_stub{&put_kernel, nullptr, 0b1};
decltype(put_reduce_stub) put_reduce_stub{&put_reduce_kernel, nullptr, 0b1};
decltype(nonzero_stub) nonzero_stub{&nonzero_kernel};
decltype(index_add_stub) index_add_stub{&index_add_kernel};
decltype(scatter_dim_stub) scatter_dim_stub{&scatter_dim_kernel};
decltype(nll_loss_backward_stub) nll_loss_backward_stub{&nll_loss_backward_kernel};
decltype(gemm_stub) gemm_stub{&gemm};
// The fused steps update the parameter and their state in place: (param, grad, buffer).
decltype(sgd_stub) sgd_stub{&sgd_kernel, nullptr, 0b101};
// (param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq): all but grad are written.
decltype(adam_stub) adam_stub{&adam_kernel, nullptr, 0b11101};
// (param, grad, square_avg, grad_avg, momentum_buffer): all but grad are written.
decltype(rmsprop_stub) rmsprop_stub{&rmsprop_kernel, nullptr, 0b11101};
// (param, grad, sum): all but grad are written.
decltype(adagrad_stub) adagrad_stub{&adagrad_kernel, nullptr, 0b101};
decltype(uniform_stub) uniform_stub{&uniform_kernel};
decltype(normal_stub) normal_stub{&normal_kernel};
decltype(randint_stub) randint_stub{&randint_kernel};

std::vector<StubInfo> all_stubs() {
  std::vector<StubInfo> stubs{{"binary", binary_stub.cuda != nullptr},
          {"binary_scalar", binary_scalar_stub.cuda != nullptr},
          {"unary", unary_stub.cuda != nullptr},
          {"ternary", ternary_stub.cuda != nullptr},
          {"clamp", clamp_stub.cuda != nullptr},
          {"where", where_stub.cuda != nullptr},
          {"fill", fill_stub.cuda != nullptr},
          {"copy", copy_stub.cuda != nullptr},
          {"sum", sum_stub.cuda != nullptr},
          {"min_max", min_max_stub.cuda != nullptr},
          {"prod", prod_stub.cuda != nullptr},
          {"scan", scan_stub.cuda != nullptr},
          {"cum_extremum", cum_extremum_stub.cuda != nullptr},
          {"sort", sort_stub.cuda != nullptr},
          {"search", search_stub.cuda != nullptr},
          {"softmax", softmax_stub.cuda != nullptr},
          {"nll_loss", nll_loss_stub.cuda != nullptr},
          {"index_select", index_select_stub.cuda != nullptr},
          {"cat", cat_stub.cuda != nullptr},
          {"index_wrap", index_wrap_stub.cuda != nullptr},
          {"take", take_stub.cuda != nullptr},
          {"gather", gather_stub.cuda != nullptr},
          {"put", put_stub.cuda != nullptr},
          {"put_reduce", put_reduce_stub.cuda != nullptr},
          {"nonzero", nonzero_stub.cuda != nullptr},
          {"index_add", index_add_stub.cuda != nullptr},
          {"scatter_dim", scatter_dim_stub.cuda != nullptr},
          {"nll_loss_backward", nll_loss_backward_stub.cuda != nullptr},
          {"gemm", gemm_stub.cuda != nullptr},
          {"uniform", uniform_stub.cuda != nullptr},
          {"normal", normal_stub.cuda != nullptr},
          {"randint", randint_stub.cuda != nullptr},
          {"sgd_step", sgd_stub.cuda != nullptr},
          {"adam_step", adam_stub.cuda != nullptr},
          {"rmsprop_step", rmsprop_stub.cuda != nullptr},
          {"adagrad_step", adagrad_stub.cuda != nullptr},
          {"max_pool2d", max_pool2d_stub.cuda != nullptr},
          {"max_pool2d_backward", max_pool2d_backward_stub.cuda != nullptr},
          {"avg_pool2d", avg_pool2d_stub.cuda != nullptr},
          {"avg_pool2d_backward", avg_pool2d_backward_stub.cuda != nullptr},
          {"adaptive_avg_pool2d", adaptive_avg_pool2d_stub.cuda != nullptr},
          {"adaptive_avg_pool2d_backward", adaptive_avg_pool2d_backward_stub.cuda != nullptr}};
  // The convolutions' GPU launchers are cuDNN's: listed where the build has it.
  if (TIDE_BUILT_WITH_CUDNN == 1) {
    stubs.push_back({"conv2d", conv2d_stub.cuda != nullptr});
    stubs.push_back({"conv2d_backward_input", conv2d_backward_input_stub.cuda != nullptr});
    stubs.push_back({"conv2d_backward_weight", conv2d_backward_weight_stub.cuda != nullptr});
  }
  return stubs;
}

}  // namespace tide::kernels
