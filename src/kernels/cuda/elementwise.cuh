#pragma once
// The GPU elementwise loop: launch_elementwise runs an element functor over an output and its
// inputs (already broadcast to the output's shape), on the current launch's stream.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/cuda/launch_config.h"
#include "kernels/cuda/runtime_interface.h"
#include "kernels/cuda/offset_calculator.h"
#include "kernels/convert.h"
#include "kernels/cpu/elementwise.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

// Note [GPU elementwise paths]: as on the cpu (Note [Elementwise kernel paths]) the functor is
// applied per element with the same conversions, so results match the cpu loops. Two kernels:
// - vectorized: every operand contiguous with the output's shape and aligned for its access
//   (Note [GPU launch configuration]); each thread loads one vector per input, applies the
//   functor to each lane and stores one vector, then strides by the grid; the numel % width
//   leftover elements are done one by one. Index math is 64-bit here: it is one add per step,
//   there is no division to save.
// - strided: anything else (broadcast, transposed, sliced, misaligned, tiny). ElementwiseIter
//   coalesces the dimensions on the host; the kernel maps each linear index to byte offsets
//   with an OffsetCalculator passed by value (Note [Strided GPU path]). A contiguous but
//   misaligned tensor coalesces to one dimension, whose offsets need no division.
// Functors are small structs passed by value as kernel parameters; `In...` are the storage
// types of the inputs, `Out` of the output, and f(In...) returns Out.

template <class... T>
struct TypeList {};

/// Wraps a compute-type functor from kernels/functors.h so it loads T, computes in
/// compute_t<T> and stores Out: the cpu kernels' conversions exactly.
template <class T, class Out, class Op>
struct ComputeIn {
  Op op;
  TIDE_HOST_DEVICE Out operator()(T x) const {
    return kernels::convert<Out>(op(kernels::convert<kernels::compute_t<T>>(x)));
  }
  TIDE_HOST_DEVICE Out operator()(T x, T y) const {
    using C = kernels::compute_t<T>;
    return kernels::convert<Out>(op(kernels::convert<C>(x), kernels::convert<C>(y)));
  }
  TIDE_HOST_DEVICE Out operator()(T x, T y, T z) const {
    using C = kernels::compute_t<T>;
    return kernels::convert<Out>(
        op(kernels::convert<C>(x), kernels::convert<C>(y), kernels::convert<C>(z)));
  }
};

/// The storage type a functor's result is stored as: bool for comparisons, T otherwise.
template <class T, class Op>
using stored_t = std::conditional_t<
    std::is_same_v<std::decay_t<decltype(std::declval<Op>()(compute_t<T>{}, compute_t<T>{}))>,
                   bool>,
    bool, T>;

/// W elements of T as one aligned unit: copying it is a single W * sizeof(T)-byte access.
template <class T, int W>
struct alignas(sizeof(T) * W) Vec {
  T v[W];
};

template <int N>
struct DataPtrs {
  char* p[N];
};

template <int W, class F, class Out, class... In>
__device__ __forceinline__ void apply_vector(const F& f, Vec<Out, W>* out, Vec<In, W>... in) {
  Vec<Out, W> result;
#pragma unroll
  for (int j = 0; j < W; ++j) result.v[j] = f(in.v[j]...);
  *out = result;
}

template <int W, class F, class Out, class... In>
__global__ void __launch_bounds__(kElementwiseThreads)
    vectorized_elementwise_kernel(F f, int64_t n, Out* out, const In*... in) {
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t vectors = n / W;
  for (int64_t v = first; v < vectors; v += step) {
    apply_vector<W>(f, reinterpret_cast<Vec<Out, W>*>(out) + v,
                    reinterpret_cast<const Vec<In, W>*>(in)[v]...);
  }
  // The n % W leftover elements: fewer than W <= step, so one pass of the first threads.
  if (first < n - vectors * W) {
    const int64_t i = vectors * W + first;
    out[i] = f(in[i]...);
  }
}

template <class Out, class... In, class F, class Offsets, std::size_t... K>
__device__ __forceinline__ void apply_at(TypeList<Out, In...>, const F& f, char* const* data,
                                         const Offsets& off, std::index_sequence<K...>) {
  *reinterpret_cast<Out*>(data[0] + off.v[0]) =
      f(*reinterpret_cast<const In*>(data[K + 1] + off.v[K + 1])...);
}

template <class Index, class F, class Out, class... In>
__global__ void __launch_bounds__(kElementwiseThreads)
    strided_elementwise_kernel(F f, Index n, OffsetCalculator<1 + sizeof...(In), Index> calc,
                               DataPtrs<1 + sizeof...(In)> data) {
  // n <= INT32_MAX when Index is 32-bit and the step is far smaller, so i + step cannot wrap.
  const Index step = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    apply_at(TypeList<Out, In...>{}, f, data.p, calc.get(i), std::index_sequence_for<In...>{});
  }
}

template <class Index, class F, class Out, class... In>
void launch_strided(const F& f, const kernels::ElementwiseIter& it, const LaunchContext& ctx) {
  constexpr int N = 1 + sizeof...(In);
  DataPtrs<N> data;
  for (int k = 0; k < N; ++k) data.p[k] = it.data[k];
  const int64_t blocks =
      grid_blocks(it.numel, 1, kElementwiseThreads, ctx.sm_count, ctx.max_threads_per_sm);
  const auto stream = static_cast<cudaStream_t>(ctx.stream);
  strided_elementwise_kernel<Index, F, Out, In...>
      <<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(
          f, static_cast<Index>(it.numel), make_offset_calculator<N, Index>(it), data);
  TIDE_CUDA_CHECK(cudaGetLastError());
}

/// out[i] = f(inputs[i]...) over out's elements, any strides; inputs have out's shape (expanded
/// where broadcast) and the storage types In...; out has Out. Enqueues on current_launch()'s
/// stream and returns; nothing is launched for an empty output. Note [GPU elementwise paths].
/// kMaxWidth (0: no limit) caps the elements a thread handles at once on the vectorized path.
template <int kMaxWidth = 0, class Out, class... In, class F, class... Inputs>
void launch_elementwise(TypeList<Out, In...>, const F& f, const Tensor& out,
                        const Inputs&... inputs) {
  static_assert(sizeof...(In) == sizeof...(Inputs), "one storage type per input tensor");
  const int64_t n = out.numel();
  if (n == 0) return;
  const LaunchContext& ctx = current_launch();

  constexpr int kFullWidth = max_vector_width({static_cast<int64_t>(sizeof(Out)),
                                               static_cast<int64_t>(sizeof(In))...});
  constexpr int kWidth = kMaxWidth > 0 && kMaxWidth < kFullWidth ? kMaxWidth : kFullWidth;
  const bool flat = out.is_contiguous() && ((inputs.is_contiguous() && inputs.numel() == n) && ...);
  if (flat && vector_width({VectorOperand{out.raw_data(), sizeof(Out), true},
                            VectorOperand{inputs.raw_data(), sizeof(In), true}...},
                           n) >= kWidth) {
    const int64_t blocks = grid_blocks(ceil_div(n, kWidth), 1, kElementwiseThreads, ctx.sm_count,
                                       ctx.max_threads_per_sm);
    const auto stream = static_cast<cudaStream_t>(ctx.stream);
    vectorized_elementwise_kernel<kWidth, F, Out, In...>
        <<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(
            f, n, static_cast<Out*>(out.raw_data()), static_cast<const In*>(inputs.raw_data())...);
    TIDE_CUDA_CHECK(cudaGetLastError());
    return;
  }

  const kernels::ElementwiseIter it = kernels::ElementwiseIter::build({&out, &inputs...});
  // Every piece fits 32-bit indexing (Note [Strided GPU path]).
  for_each_kernel_iter(it, [&](const kernels::ElementwiseIter& sub) {
    launch_strided<uint32_t, F, Out, In...>(f, sub, ctx);
  });
}

}  // namespace tide::kernels::cuda
