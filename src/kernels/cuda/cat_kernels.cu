// GPU launcher of cat_stub: inputs written one after another along `dim` of the contiguous
// output, as the cpu (kernels/cpu/shape_kernels.cpp) does.
//
// Note [GPU cat]: out is viewed as (outer, total, inner) around `dim`; input k fills columns
// [offset_k, offset_k + size_k) of it. Contiguous inputs of out's dtype move as raw copy units
// (Note [Copy units]), up to kCatBatch of them per launch with blockIdx.y picking the input,
// so a cat of many small tensors is a few launches. Any other input (strided, or of another
// dtype) is copied and converted by a kernel that walks its strides, one launch per input.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cuda/copy_units.cuh"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/reduce_index_random_launchers.h"
#include "kernels/convert.h"

namespace tide::kernels::cuda {
namespace {

constexpr int kCatThreads = 256;
constexpr int kCatBatch = 32;
// torch's limit on dims (MAX_DIMS); dims are collapsed first, so only odd layouts come close.
constexpr int kMaxCopyDims = 25;

struct CatBatch {
  const void* src[kCatBatch];
  int64_t run[kCatBatch];     // units input k contributes per outer index (size_k * inner)
  int64_t offset[kCatBatch];  // where that run starts inside an output row, in units
};

template <class Unit>
__global__ void __launch_bounds__(kCatThreads)
    cat_contiguous_kernel(Unit* out, CatBatch batch, int64_t outer, int64_t out_row) {
  const Unit* src = static_cast<const Unit*>(batch.src[blockIdx.y]);
  const int64_t run = batch.run[blockIdx.y];
  const int64_t offset = batch.offset[blockIdx.y];
  const int64_t total = outer * run;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = e / run;
    out[o * out_row + offset + (e - o * run)] = src[e];
  }
}

/// An input and its place in the output as one strided copy, dims collapsed.
struct StridedCopy {
  int ndim;
  int64_t sizes[kMaxCopyDims];
  int64_t src_strides[kMaxCopyDims];
  int64_t dst_strides[kMaxCopyDims];
};

template <class Out, class In>
__global__ void __launch_bounds__(kCatThreads)
    cat_strided_kernel(Out* out, const In* in, StridedCopy c, int64_t numel) {
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; e < numel;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rest = e, src = 0, dst = 0;
    for (int d = c.ndim - 1; d > 0; --d) {
      const int64_t q = rest / c.sizes[d];
      const int64_t i = rest - q * c.sizes[d];
      src += i * c.src_strides[d];
      dst += i * c.dst_strides[d];
      rest = q;
    }
    src += rest * c.src_strides[0];
    dst += rest * c.dst_strides[0];
    out[dst] = kernels::convert<Out>(in[src]);
  }
}

/// The copy of `t` into its slot of `out` (contiguous strides `out_strides`), with size-1
/// dims dropped and neighbours merged where both sides are contiguous across them.
StridedCopy collapse(const Tensor& t, const DimVector& out_strides) {
  StridedCopy c{};
  c.ndim = 0;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t size = t.shape()[d];
    if (size == 1) continue;
    const int64_t src = t.stride_vector()[d], dst = out_strides[d];
    if (c.ndim > 0 && c.src_strides[c.ndim - 1] == src * size &&
        c.dst_strides[c.ndim - 1] == dst * size) {
      c.sizes[c.ndim - 1] *= size;
      c.src_strides[c.ndim - 1] = src;
      c.dst_strides[c.ndim - 1] = dst;
      continue;
    }
    TIDE_CHECK(c.ndim < kMaxCopyDims, "[cat] an input has more than ", kMaxCopyDims,
               " dims that cannot be merged; make it contiguous first");
    c.sizes[c.ndim] = size;
    c.src_strides[c.ndim] = src;
    c.dst_strides[c.ndim] = dst;
    ++c.ndim;
  }
  if (c.ndim == 0) {  // a single element
    c.ndim = 1;
    c.sizes[0] = 1;
    c.src_strides[0] = 0;
    c.dst_strides[0] = 0;
  }
  return c;
}

void launch_strided(const Tensor& out, const Tensor& t, int64_t dim, int64_t offset,
                    const LaunchContext& ctx) {
  const StridedCopy c = collapse(t, out.stride_vector());
  const int64_t numel = t.numel();
  const unsigned blocks = grid_for(ceil_div(numel, kCatThreads), ctx, kCatThreads);
  cudaStream_t stream = ctx.stream;
  dispatch_dtype(out.dtype(), [&](auto out_tag) {
    using Out = typename decltype(out_tag)::type;
    Out* dst = static_cast<Out*>(out.raw_data()) + offset * out.stride_vector()[dim];
    dispatch_dtype(t.dtype(), [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      cat_strided_kernel<Out, In><<<blocks, kCatThreads, 0, stream>>>(
          dst, static_cast<const In*>(t.raw_data()), c, numel);
    });
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

/// One launch for `count` contiguous inputs of out's dtype.
void launch_contiguous(const Tensor& out, const Tensor* const* inputs, const int64_t* offsets,
                       int count, int64_t outer, int64_t inner, const LaunchContext& ctx) {
  const uint64_t es = out.element_size();
  const uint64_t out_row_bytes = static_cast<uint64_t>(out.numel() / outer) * es;
  uint64_t quantities = reinterpret_cast<uintptr_t>(out.raw_data()) | out_row_bytes;
  int64_t largest = 0;
  for (int k = 0; k < count; ++k) {
    const uint64_t run_bytes = static_cast<uint64_t>(inputs[k]->numel() / outer) * es;
    quantities |= reinterpret_cast<uintptr_t>(inputs[k]->raw_data()) | run_bytes |
                  static_cast<uint64_t>(offsets[k] * inner) * es;
    largest = std::max(largest, inputs[k]->numel());
  }
  const int unit = copy_unit({quantities});
  CatBatch batch{};
  for (int k = 0; k < count; ++k) {
    batch.src[k] = inputs[k]->raw_data();
    batch.run[k] = static_cast<int64_t>(static_cast<uint64_t>(inputs[k]->numel() / outer) * es / unit);
    batch.offset[k] = static_cast<int64_t>(static_cast<uint64_t>(offsets[k] * inner) * es / unit);
  }
  const int64_t out_row = static_cast<int64_t>(out_row_bytes / unit);
  const int64_t largest_units = static_cast<int64_t>(static_cast<uint64_t>(largest) * es / unit);
  const dim3 grid(grid_for(ceil_div(largest_units, kCatThreads), ctx, kCatThreads),
                  static_cast<unsigned>(count));
  cudaStream_t stream = ctx.stream;
  dispatch_copy_unit(unit, [&](auto tag) {
    using Unit = typename decltype(tag)::type;
    cat_contiguous_kernel<Unit><<<grid, kCatThreads, 0, stream>>>(
        static_cast<Unit*>(out.raw_data()), batch, outer, out_row);
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void cat_cuda(const Tensor& out, const std::vector<Tensor>& inputs, int64_t dim) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out));
  if (out.numel() == 0) return;
  const kernels::ReduceShape around = kernels::split_at_dim(out.shape(), dim);
  const int64_t outer = around.outer, inner = around.inner;
  const LaunchContext& ctx = current_launch();
  // Batches of contiguous same-dtype inputs, on the stack (no host allocation per op).
  const Tensor* batch[kCatBatch];
  int64_t offsets[kCatBatch];
  int count = 0;
  auto flush = [&] {
    if (count > 0) launch_contiguous(out, batch, offsets, count, outer, inner, ctx);
    count = 0;
  };
  int64_t offset = 0;
  for (const Tensor& t : inputs) {
    const int64_t size = t.shape()[dim];
    if (t.numel() > 0) {
      if (t.dtype() == out.dtype() && t.is_contiguous()) {
        batch[count] = &t;
        offsets[count] = offset;
        if (++count == kCatBatch) flush();
      } else {
        launch_strided(out, t, dim, offset, ctx);
      }
    }
    offset += size;
  }
  flush();
}

}  // namespace tide::kernels::cuda
