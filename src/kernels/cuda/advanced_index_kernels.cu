// GPU launchers of the advanced indexing stubs (and gather's, which shares their machinery), as
// the cpu loops in kernels/cpu/advanced_index_kernels.cpp.
//
// Note [GPU advanced indexing]: take and put move elements as unsigned words of their size (one
// instantiation per element size, not per dtype) and find a strided operand's elements with the
// elementwise path's OffsetCalculator (Note [Strided GPU path]). put's accumulation adds with
// atomics, so it is instantiated for the dtypes atomicAdd serves (float32, float64, int32,
// int64). put_reduce (scatter_reduce's prod, amax and amin) combines with a compare-and-swap
// loop on the element's word, for the same four dtypes. nonzero runs as one block that scans the mask in chunks of its width (a warp-shuffle
// prefix sum per chunk): the host already waited for the count to size the output (Note
// [Data-dependent shapes] in ops/indexing.cpp), so the rows' order is the cpu's, row-major.

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "backends/cuda/device_errors.cuh"
#include "kernels/cuda/advanced_index_launchers.h"
#include "kernels/cuda/block_reduce.cuh"
#include "kernels/cuda/grid_sizing.h"
#include "kernels/cuda/offset_calculator.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cpu/reduce_kernels.h"

namespace tide::kernels::cuda {

using backends::cuda::report_index_error;
namespace {

constexpr int kIndexThreads = 256;
constexpr int kNonzeroThreads = 1024;

using Offsets = OffsetCalculator<1, int64_t>;

/// Byte offsets of t's elements by row-major number: one dimension when t is contiguous.
Offsets offsets_of(const Tensor& t) {
  Offsets c;
  const int64_t size = static_cast<int64_t>(t.element_size());
  if (t.is_contiguous()) {
    c.ndim = 1;
    c.sizes[0] = t.numel();
    c.strides[0][0] = size;
    return c;
  }
  TIDE_CHECK(t.dim() <= kMaxKernelDims, "[index] expected a tensor of at most ", kMaxKernelDims,
             " dimensions or a contiguous one on GPUs, found ", t.dim(),
             " dimensions; call .contiguous() first");
  c.ndim = static_cast<int>(t.dim());
  const std::vector<int64_t> strides = t.strides();
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t src = t.dim() - 1 - d;  // innermost first
    c.sizes[d] = t.shape()[src];
    c.strides[d][0] = strides[src] * size;
  }
  return c;
}

unsigned grid_of(int64_t n, const LaunchContext& ctx) {
  return grid_for(ceil_div(n, kIndexThreads), ctx, kIndexThreads);
}

__global__ void __launch_bounds__(kIndexThreads)
    index_wrap_kernel(int64_t* out, const int64_t* index, int64_t n, int64_t size,
                      kernels::IndexErrorKind kind, int64_t aux, ErrorSink sink) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t v = index[j];
    if (v < (negative_indices_wrap(kind) ? -size : 0) || v >= size) {
      report_index_error(sink, kind, j, v, size, aux);
      out[j] = 0;  // a valid element: what follows reads no wild address
    } else {
      out[j] = v < 0 ? v + size : v;
    }
  }
}

template <class U>
__global__ void __launch_bounds__(kIndexThreads)
    take_kernel(U* out, const char* in, const int64_t* index, int64_t n, Offsets in_offsets) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    out[j] = *reinterpret_cast<const U*>(in + in_offsets.get(index[j]).v[0]);
  }
}

/// Note [A gather of its own] (ops/indexing_along_dim.cpp): operand 0 of `offsets` is self
/// walked along index's shape with stride 0 at `dim`, operand 1 the index; the entry read there
/// supplies the coordinate along dim, checked in the same pass.
template <class U>
__global__ void __launch_bounds__(kIndexThreads)
    gather_kernel(U* out, const char* in, const char* index, int64_t n, int64_t size,
                  int64_t dim_stride, int64_t dim, OffsetCalculator<2, int64_t> offsets,
                  ErrorSink sink) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const auto o = offsets.get(j);
    const int64_t v = *reinterpret_cast<const int64_t*>(index + o.v[1]);
    if (v < 0 || v >= size) {
      report_index_error(sink, kernels::IndexErrorKind::DimIndex, j, v, size, dim);
      out[j] = 0;  // the ops after this one still run (Note [Index errors in kernels])
    } else {
      out[j] = *reinterpret_cast<const U*>(in + o.v[0] + v * dim_stride);
    }
  }
}

template <class U, bool kAccumulate>
__global__ void __launch_bounds__(kIndexThreads)
    put_kernel(char* self, const int64_t* index, const U* source, int64_t n,
               Offsets self_offsets) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    U* dst = reinterpret_cast<U*>(self + self_offsets.get(index[j]).v[0]);
    if constexpr (kAccumulate) {
      if constexpr (std::is_same_v<U, int64_t>) {
        atomicAdd(reinterpret_cast<unsigned long long*>(dst),
                  static_cast<unsigned long long>(source[j]));  // two's complement: same bits
      } else {
        atomicAdd(dst, source[j]);
      }
    } else {
      *dst = source[j];
    }
  }
}

/// The unsigned word atomicCAS swaps for a T of its size.
template <class T>
using CasWord = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

/// kernels/cpu/advanced_index_kernels.cpp's combine for one element, on the device.
template <class T>
__device__ T combine(kernels::PutReduce op, T a, T b) {
  if (op == kernels::PutReduce::Prod) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));  // wraps, as torch's
    } else {
      return a * b;
    }
  }
  if constexpr (!std::is_integral_v<T>) {
    if (b != b) return b;  // NaN propagates
  }
  if (op == kernels::PutReduce::Amax) return a < b ? b : a;
  return b < a ? b : a;
}

template <class T>
__global__ void __launch_bounds__(kIndexThreads)
    put_reduce_kernel(char* self, const int64_t* index, const T* source, int64_t n,
                      Offsets self_offsets, kernels::PutReduce op) {
  using W = CasWord<T>;
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    W* word = reinterpret_cast<W*>(self + self_offsets.get(index[j]).v[0]);
    W old = *word;
    W assumed;
    do {
      assumed = old;
      T current;
      memcpy(&current, &assumed, sizeof(T));
      const T next = combine(op, current, source[j]);
      W next_word;
      memcpy(&next_word, &next, sizeof(T));
      if (next_word == assumed) break;  // nothing to write (a NaN compares by its bits here)
      old = atomicCAS(word, assumed, next_word);
    } while (old != assumed);
  }
}

struct MaskShape {
  int ndim;
  int64_t sizes[kMaxKernelDims];
};

__global__ void __launch_bounds__(kNonzeroThreads)
    nonzero_kernel(int64_t* out, const bool* mask, int64_t numel, MaskShape shape) {
  __shared__ int64_t warp_totals[kNonzeroThreads / kWarpSize];
  __shared__ int64_t base;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  if (threadIdx.x == 0) base = 0;
  __syncthreads();
  for (int64_t start = 0; start < numel; start += kNonzeroThreads) {
    const int64_t i = start + threadIdx.x;
    const int64_t flag = i < numel && mask[i] ? 1 : 0;
    int64_t inclusive = flag;  // within the warp
    for (int delta = 1; delta < kWarpSize; delta *= 2) {
      const int64_t up = __shfl_up_sync(kFullWarp, inclusive, delta);
      if (lane >= delta) inclusive += up;
    }
    if (lane == kWarpSize - 1) warp_totals[warp] = inclusive;
    __syncthreads();
    int64_t before = base;
    for (int w = 0; w < warp; ++w) before += warp_totals[w];
    if (flag) {
      int64_t row = before + inclusive - 1;
      int64_t rest = i;
      for (int d = shape.ndim - 1; d >= 0; --d) {
        out[row * shape.ndim + d] = rest % shape.sizes[d];
        rest /= shape.sizes[d];
      }
    }
    __syncthreads();
    if (threadIdx.x == kNonzeroThreads - 1) base = before + inclusive;
    __syncthreads();
  }
}

template <class F>
void dispatch_word(size_t element_size, const F& f) {
  switch (element_size) {
    case 1: return f(TypeTag<uint8_t>{});
    case 2: return f(TypeTag<uint16_t>{});
    case 4: return f(TypeTag<uint32_t>{});
    default:
      TIDE_INTERNAL_ASSERT(element_size == 8);
      return f(TypeTag<uint64_t>{});
  }
}

/// What put and put_reduce launch with: self's data and element offsets, index's numbers.
struct PutOperands {
  char* dst;
  const int64_t* idx;
  Offsets offsets;
};

PutOperands put_operands(const Tensor& self, const Tensor& index, const Tensor& source) {
  TIDE_INTERNAL_ASSERT(kernels::dense(source) && kernels::dense(index) &&
                       index.dtype() == kInt64 && self.dtype() == source.dtype());
  return {static_cast<char*>(self.raw_data()), static_cast<const int64_t*>(index.raw_data()),
          offsets_of(self)};
}

/// The dtypes whose elements GPU atomics add and compare-and-swap (put's accumulation,
/// put_reduce).
bool has_atomics(Dtype d) { return d == kFloat32 || d == kFloat64 || d == kInt32 || d == kInt64; }

/// put's accumulation and put_reduce for the dtypes with atomics (checked by the caller).
template <class F>
void dispatch_atomic(Dtype d, const F& f) {
  if (d == kFloat32) return f(TypeTag<float>{});
  if (d == kFloat64) return f(TypeTag<double>{});
  if (d == kInt32) return f(TypeTag<int32_t>{});
  TIDE_INTERNAL_ASSERT(d == kInt64);
  return f(TypeTag<int64_t>{});
}

}  // namespace

void index_wrap_cuda(const Tensor& out, const Tensor& index, int64_t size,
                     kernels::IndexErrorKind kind, int64_t aux) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && kernels::dense(index) && index.dtype() == kInt64);
  const int64_t n = index.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  index_wrap_kernel<<<grid_of(n, ctx), kIndexThreads, 0, ctx.stream>>>(
      static_cast<int64_t*>(out.raw_data()), static_cast<const int64_t*>(index.raw_data()), n,
      size, kind, aux, ctx.error_sink());
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void take_cuda(const Tensor& out, const Tensor& in, const Tensor& index) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && kernels::dense(index) && index.dtype() == kInt64);
  const int64_t n = index.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  const Offsets in_offsets = offsets_of(in);
  dispatch_word(in.element_size(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    take_kernel<U><<<grid_of(n, ctx), kIndexThreads, 0, ctx.stream>>>(
        static_cast<U*>(out.raw_data()), static_cast<const char*>(in.raw_data()),
        static_cast<const int64_t*>(index.raw_data()), n, in_offsets);
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void gather_cuda(const Tensor& out, const Tensor& in, const Tensor& index, int64_t dim) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && index.dtype() == kInt64 && index.dim() == in.dim());
  const int64_t n = index.numel();
  if (n == 0) return;
  TIDE_CHECK(in.dim() <= kMaxKernelDims, "[gather] expected at most ", kMaxKernelDims,
             " dimensions on GPUs, found ", in.dim(), "; reshape the tensor first");
  // index's shape, innermost first, with in's and index's byte strides; in's is 0 along dim.
  OffsetCalculator<2, int64_t> offsets;
  offsets.ndim = static_cast<int>(in.dim());
  const std::vector<int64_t> in_strides = in.strides();
  const std::vector<int64_t> index_strides = index.strides();
  const int64_t element = static_cast<int64_t>(in.element_size());
  for (int64_t d = 0; d < in.dim(); ++d) {
    const int64_t src = in.dim() - 1 - d;
    offsets.sizes[d] = index.shape()[src];
    offsets.strides[d][0] = src == dim ? 0 : in_strides[src] * element;
    offsets.strides[d][1] = index_strides[src] * static_cast<int64_t>(sizeof(int64_t));
  }
  const LaunchContext& ctx = current_launch();
  dispatch_word(in.element_size(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    gather_kernel<U><<<grid_of(n, ctx), kIndexThreads, 0, ctx.stream>>>(
        static_cast<U*>(out.raw_data()), static_cast<const char*>(in.raw_data()),
        static_cast<const char*>(index.raw_data()), n, in.shape()[dim],
        in_strides[dim] * element, dim, offsets, ctx.error_sink());
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void put_cuda(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  const Dtype d = self.dtype();
  // The accumulating write under index_put_(accumulate=True), index_add_, scatter_add_ and
  // scatter_reduce_'s sum and mean: the message names them all, as any of them can reach it.
  TIDE_CHECK(!accumulate || has_atomics(d), "[Tensor::put_] accumulating writes on GPUs "
             "(index_put_ with accumulate=True, index_add_, scatter_add_, scatter_reduce_ with "
             "sum or mean) expected float32, float64, int32 or int64, found ", name(d),
             "; accumulate in one of those and convert back");
  const int64_t n = index.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  const PutOperands ops = put_operands(self, index, source);
  const unsigned grid = grid_of(n, ctx);
  if (accumulate) {
    dispatch_atomic(d, [&](auto tag) {
      using T = typename decltype(tag)::type;
      put_kernel<T, true><<<grid, kIndexThreads, 0, ctx.stream>>>(
          ops.dst, ops.idx, static_cast<const T*>(source.raw_data()), n, ops.offsets);
    });
  } else {
    dispatch_word(self.element_size(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      put_kernel<U, false><<<grid, kIndexThreads, 0, ctx.stream>>>(
          ops.dst, ops.idx, static_cast<const U*>(source.raw_data()), n, ops.offsets);
    });
  }
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void put_reduce_cuda(const Tensor& self, const Tensor& index, const Tensor& source,
                     kernels::PutReduce op) {
  const Dtype d = self.dtype();
  TIDE_CHECK(has_atomics(d), "[Tensor::scatter_reduce_] reduce=\"prod\", \"amax\" or "
             "\"amin\" on GPUs expected float32, float64, int32 or int64, found ", name(d),
             "; reduce in one of those and convert back");
  const int64_t n = index.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();
  const PutOperands ops = put_operands(self, index, source);
  dispatch_atomic(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    put_reduce_kernel<T><<<grid_of(n, ctx), kIndexThreads, 0, ctx.stream>>>(
        ops.dst, ops.idx, static_cast<const T*>(source.raw_data()), n, ops.offsets, op);
  });
  TIDE_CUDA_CHECK(cudaGetLastError());
}

void nonzero_cuda(const Tensor& out, const Tensor& mask) {
  TIDE_INTERNAL_ASSERT(kernels::dense(out) && kernels::dense(mask) && mask.dtype() == kBool);
  if (out.numel() == 0) return;
  TIDE_CHECK(mask.dim() <= kMaxKernelDims, "[nonzero] expected at most ", kMaxKernelDims,
             " dimensions on GPUs, found ", mask.dim(), "; flatten the tensor first");
  MaskShape shape{static_cast<int>(mask.dim()), {}};
  for (int64_t d = 0; d < mask.dim(); ++d) shape.sizes[d] = mask.shape()[d];
  nonzero_kernel<<<1, kNonzeroThreads, 0, current_launch().stream>>>(
      static_cast<int64_t*>(out.raw_data()), static_cast<const bool*>(mask.raw_data()),
      mask.numel(), shape);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tide::kernels::cuda
