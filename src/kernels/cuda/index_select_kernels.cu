// GPU launcher of index_select_stub: out[o, j, i] = in[o, index[j], i] around `dim`, as the cpu
// (kernels/cpu/index_kernels.cpp), rows moved in copy units (Note [Copy units]).
//
// Note [GPU index_select errors]: an index outside [0, size) is reported to the device's error
// record (Note [Device error records]) by the one thread that copies unit 0 of row (0, j) —
// once per bad index, not once per element — and every element it selects is skipped, never
// read. The cpu writes nothing at all then; here the rows of good indices are still written.
// When the output is empty (a zero-size dim besides `dim`) the indices are still checked, as
// the cpu checks them, by a kernel of its own.

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda/copy_units.cuh"
#include "backends/cuda/device_errors.cuh"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"

namespace tide::kernels::cuda {

using backends::cuda::report_index_error;
namespace {

constexpr int kIndexThreads = 256;
// Rows of at least this many units take a block each; shorter ones are spread over threads.
constexpr int64_t kBlockRowUnits = 128;

struct SelectShape {
  int64_t outer;
  int64_t size;       // of `dim` in the input
  int64_t n;          // indices
  int64_t row_units;  // units per (o, j) row
  int64_t dim;
};

/// The input row index[j] selects, or -1 after reporting it when `report` and it is bad.
template <class Index>
__device__ inline int64_t selected(const Index* index, int64_t j, const SelectShape& s,
                                   bool report, const ErrorSink& sink) {
  const int64_t v = static_cast<int64_t>(index[j]);
  if (v >= 0 && v < s.size) return v;
  if (report) report_index_error(sink, kernels::IndexErrorKind::IndexSelect, j, v, s.size, s.dim);
  return -1;
}

// A thread per unit: short rows.
template <class Unit, class Index>
__global__ void __launch_bounds__(kIndexThreads)
    index_select_units_kernel(Unit* out, const Unit* in, const Index* index, SelectShape s,
                              ErrorSink sink) {
  const int64_t total = s.outer * s.n * s.row_units;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = e / s.row_units, u = e - row * s.row_units;
    const int64_t o = row / s.n, j = row - o * s.n;
    const int64_t v = selected(index, j, s, o == 0 && u == 0, sink);
    if (v >= 0) out[e] = in[(o * s.size + v) * s.row_units + u];
  }
}

// A block per row: long rows.
template <class Unit, class Index>
__global__ void __launch_bounds__(kIndexThreads)
    index_select_rows_kernel(Unit* out, const Unit* in, const Index* index, SelectShape s,
                             ErrorSink sink) {
  const int64_t rows = s.outer * s.n;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t o = row / s.n, j = row - o * s.n;
    const int64_t v = selected(index, j, s, o == 0 && threadIdx.x == 0, sink);
    if (v < 0) continue;
    const Unit* src = in + (o * s.size + v) * s.row_units;
    Unit* dst = out + row * s.row_units;
    for (int64_t u = threadIdx.x; u < s.row_units; u += blockDim.x) dst[u] = src[u];
  }
}

// Checks the indices alone (the output is empty).
template <class Index>
__global__ void __launch_bounds__(kIndexThreads)
    index_select_check_kernel(const Index* index, SelectShape s, ErrorSink sink) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < s.n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    selected(index, j, s, true, sink);
  }
}

template <class Index>
void launch_index_select(const Tensor& out, const Tensor& in, const Index* index, SelectShape s,
                         int64_t inner) {
  const LaunchContext& ctx = current_launch();
  cudaStream_t stream = ctx.stream;
  if (out.numel() == 0) {
    index_select_check_kernel<Index>
        <<<grid_for(ceil_div(s.n, kIndexThreads), ctx, kIndexThreads), kIndexThreads, 0,
           stream>>>(index, s, ctx.error_sink());
    TIDE_CUDA_CHECK(cudaGetLastError());
    return;
  }
  const uint64_t row_bytes = static_cast<uint64_t>(inner) * in.element_size();
  const int unit = copy_unit({row_bytes, reinterpret_cast<uintptr_t>(in.raw_data()),
                              reinterpret_cast<uintptr_t>(out.raw_data())});
  s.row_units = static_cast<int64_t>(row_bytes) / unit;
  dispatch_copy_unit(unit, [&](auto tag) {
    using Unit = typename decltype(tag)::type;
    Unit* dst = static_cast<Unit*>(out.raw_data());
    const Unit* src = static_cast<const Unit*>(in.raw_data());
    if (s.row_units >= kBlockRowUnits) {
      index_select_rows_kernel<Unit, Index>
          <<<grid_for(s.outer * s.n, ctx, kIndexThreads), kIndexThreads, 0, stream>>>(
              dst, src, index, s, ctx.error_sink());
    } else {
      const int64_t total = s.outer * s.n * s.row_units;
      index_select_units_kernel<Unit, Index>
          <<<grid_for(ceil_div(total, kIndexThreads), ctx, kIndexThreads), kIndexThreads, 0,
             stream>>>(dst, src, index, s, ctx.error_sink());
    }
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void index_select_cuda(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(kernels::dense(in) && kernels::dense(out) && kernels::dense(index));
  TIDE_INTERNAL_ASSERT(in.dtype() == out.dtype());
  TIDE_INTERNAL_ASSERT(index.dtype() == kInt64 || index.dtype() == kInt32);
  const kernels::ReduceShape around = kernels::split_at_dim(in.shape(), dim);
  const int64_t outer = around.outer, size = around.reduced, inner = around.inner;
  const int64_t n = index.numel();
  if (n == 0) return;  // nothing to check, nothing to write
  const SelectShape shape{outer, size, n, 0, dim};
  if (index.dtype() == kInt32) {
    launch_index_select(out, in, static_cast<const int32_t*>(index.raw_data()), shape, inner);
  } else {
    launch_index_select(out, in, static_cast<const int64_t*>(index.raw_data()), shape, inner);
  }
}

}  // namespace tide::kernels::cuda
