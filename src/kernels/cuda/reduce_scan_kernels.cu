// GPU launchers of scan_stub and cum_extremum_stub: cumsum, cumprod, cummax and cummin over the
// middle dim of a ReduceShape.
//
// Note [GPU scans]: a thread walks one line (o, i) from r = 0 up, accumulating with the
// reduction's fold and accumulator (Note [Reduction folds]), so each output is the cpu's
// sequential prefix exactly (bit for bit for integers and for floats computed in the same
// order). Neighbouring threads take neighbouring i, so the reads of a row of lines coalesce
// when inner > 1. A few very long lines (inner == 1, outer small) run serially per line: a
// block-wide scan would be faster there; it is left for when a workload needs it.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/convert.h"
#include "kernels/fold_dispatch.h"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/cuda/reduce_plan.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/reduce_functors.h"

namespace tide::kernels::cuda {
namespace {

using kernels::finish_sum;
using kernels::ReduceShape;
using kernels::sum_acc_t;
using kernels::to_acc;

template <class In, class Out, class Fold>
__global__ void __launch_bounds__(kReduceThreads)
    scan_lines_kernel(Out* out, const In* in, int64_t outer, int64_t len, int64_t inner) {
  using Acc = sum_acc_t<Out>;
  const Fold fold;
  const int64_t lines = outer * inner;
  for (int64_t line = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; line < lines;
       line += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = line / inner, i = line - o * inner;
    const int64_t base = o * len * inner + i;
    Acc acc = Fold::template identity<Acc>();
    for (int64_t r = 0; r < len; ++r) {
      acc = fold(acc, to_acc<Acc>(in[base + r * inner]));
      out[base + r * inner] = finish_sum<Out>(acc, 1, false);
    }
  }
}

template <class In, class Out, class Fold>
void launch_scan(Out* out, const In* in, ReduceShape s) {
  const LaunchContext& ctx = current_launch();
  const unsigned blocks =
      grid_for(ceil_div(s.outer * s.inner, kReduceThreads), ctx, kReduceThreads);
  scan_lines_kernel<In, Out, Fold>
      <<<blocks, kReduceThreads, 0, ctx.stream>>>(out, in, s.outer, s.reduced, s.inner);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

template <class In, bool IsMax>
__global__ void __launch_bounds__(kReduceThreads)
    cum_extremum_kernel(In* values, int64_t* indices, const In* in, int64_t outer, int64_t len,
                        int64_t inner) {
  using C = kernels::compute_t<In>;
  const int64_t lines = outer * inner;
  for (int64_t line = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; line < lines;
       line += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = line / inner, i = line - o * inner;
    const int64_t base = o * len * inner + i;
    C best{};
    int64_t at = 0;
    for (int64_t r = 0; r < len; ++r) {
      const C v = kernels::convert<C>(in[base + r * inner]);
      if (r == 0 || kernels::cum_extremum_takes_over<C, IsMax>(v, best)) {
        best = v;
        at = r;
      }
      values[base + r * inner] = kernels::convert<In>(best);
      indices[base + r * inner] = at;
    }
  }
}

}  // namespace

void scan_cuda(const Tensor& out, const Tensor& in, ReduceShape shape, bool prod) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && kernels::dense(out) && out.numel() == in.numel());
  if (out.numel() == 0) return;
  kernels::with_fold_pointers(out, in, [&](const auto* src, auto* dst) {
    using In = std::remove_const_t<std::remove_pointer_t<decltype(src)>>;
    using Out = std::remove_pointer_t<decltype(dst)>;
    if (prod) {
      launch_scan<In, Out, kernels::ProdFold>(dst, src, shape);
    } else {
      launch_scan<In, Out, kernels::SumFold>(dst, src, shape);
    }
  });
}

void cum_extremum_cuda(const Tensor& values, const Tensor& indices, const Tensor& in,
                       ReduceShape s, bool is_max) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && kernels::dense(values) && kernels::dense(indices));
  if (in.numel() == 0) return;
  const LaunchContext& ctx = current_launch();
  const unsigned blocks =
      grid_for(ceil_div(s.outer * s.inner, kReduceThreads), ctx, kReduceThreads);
  dispatch_dtype(in.dtype(), [&](auto tag) {
    using In = typename decltype(tag)::type;
    auto* v = static_cast<In*>(values.raw_data());
    auto* i = static_cast<int64_t*>(indices.raw_data());
    const auto* src = static_cast<const In*>(in.raw_data());
    if (is_max) {
      cum_extremum_kernel<In, true>
          <<<blocks, kReduceThreads, 0, ctx.stream>>>(v, i, src, s.outer, s.reduced, s.inner);
    } else {
      cum_extremum_kernel<In, false>
          <<<blocks, kReduceThreads, 0, ctx.stream>>>(v, i, src, s.outer, s.reduced, s.inner);
    }
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tide::kernels::cuda
