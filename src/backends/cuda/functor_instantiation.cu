// Note [CUDA functor check]: until the real CUDA backend lands, this file instantiates every
// element functor for every dtype it serves as __global__ device code, so every CI run proves
// the shared functors are device-compilable: kernels/functors.h and kernels/convert.h (for the
// (functor, dtype) pairs the cpu elementwise kernels dispatch), kernels/reduce_functors.h (sum
// for every dtype and its int64 promotion, min/max with indices), core/philox.h with
// kernels/distributions.h (uniform and normal for the floating dtypes, randint for every dtype
// randint serves) and kernels/index_error.h (index checks for int32 and int64 indices).

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda_backend_info.h"
#include "core/philox.h"
#include "kernels/convert.h"
#include "kernels/distributions.h"
#include "kernels/functors.h"
#include "kernels/index_error.h"
#include "kernels/reduce_functors.h"
#include "tide/half.h"

namespace tide::backends {
namespace {

using kernels::compute_t;
using kernels::convert;

template <class T, class F>
__global__ void unary_kernel(T* out, const T* in, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = convert<T>(f(convert<compute_t<T>>(in[i])));
}

template <class T, class R, class F>
__global__ void binary_kernel(R* out, const T* a, const T* b, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = convert<R>(f(convert<compute_t<T>>(a[i]), convert<compute_t<T>>(b[i])));
}

template <class T>
__global__ void where_kernel(T* out, const bool* c, const T* a, const T* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = convert<T>(kernels::WhereOp<compute_t<T>>{}(c[i], convert<compute_t<T>>(a[i]),
                                                                   convert<compute_t<T>>(b[i])));
}

template <class To, class From>
__global__ void convert_kernel(To* out, const From* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = convert<To>(in[i]);
}

// ---- reductions (kernels/reduce_functors.h): one thread per output, over `rows` inputs.

template <class In, class Out>
__global__ void sum_kernel(Out* out, const In* in, int64_t outputs, int64_t rows, bool mean) {
  const int64_t o = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (o >= outputs) return;
  using Acc = kernels::sum_acc_t<Out>;
  Acc acc = Acc(0);
  for (int64_t r = 0; r < rows; ++r) acc += kernels::to_acc<Acc>(in[o * rows + r]);
  out[o] = kernels::finish_sum<Out>(acc, rows, mean);
}

template <class In, bool IsMax>
__device__ kernels::ValueIndex<compute_t<In>> scan_min_max(const In* p, int64_t begin,
                                                           int64_t end) {
  using C = compute_t<In>;
  const kernels::MinMaxSelect<C, IsMax> select;
  kernels::ValueIndex<C> best{convert<C>(p[begin]), begin};
  for (int64_t i = begin + 1; i < end; ++i) {
    const C v = convert<C>(p[i]);
    if (select(v, best.value)) best = kernels::ValueIndex<C>{v, i};
  }
  return best;
}

// Each row is scanned as two halves combined in index order, as the cpu's parallel scan does.
template <class In, bool IsMax>
__global__ void min_max_kernel(In* values, int64_t* indices, const In* in, int64_t outputs,
                               int64_t rows) {
  const int64_t o = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (o >= outputs || rows == 0) return;
  const In* row = in + o * rows;
  const int64_t half = (rows + 1) / 2;
  kernels::ValueIndex<compute_t<In>> best = scan_min_max<In, IsMax>(row, 0, half);
  if (half < rows) {
    best = kernels::combine_min_max<compute_t<In>, IsMax>(best,
                                                          scan_min_max<In, IsMax>(row, half, rows));
  }
  if (values != nullptr) values[o] = convert<In>(best.value);
  if (indices != nullptr) indices[o] = best.index;
}

// ---- random numbers (core/philox.h, kernels/distributions.h): one thread per Philox block,
// elements assigned to words as Note [Random transforms] says.

template <class T>
__global__ void uniform_kernel(T* out, int64_t n, uint64_t seed, uint64_t offset, double from,
                               double to) {
  const int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  const int64_t base = c * 4;
  if (base >= n) return;
  const philox::Words4 w = philox::block(seed, offset + static_cast<uint64_t>(c));
  for (int l = 0; l < 4 && base + l < n; ++l) {
    out[base + l] = kernels::uniform_from_word<T>(w.w[l], from, to);
  }
}

template <class T>
__global__ void normal_kernel(T* out, int64_t n, uint64_t seed, uint64_t offset, double mean,
                              double std) {
  const int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  const int64_t base = c * 4;
  if (base >= n) return;
  const philox::Words4 w = philox::block(seed, offset + static_cast<uint64_t>(c));
  for (int pair = 0; pair < 2; ++pair) {
    const int64_t i = base + 2 * pair;
    if (i >= n) break;
    double z0, z1;
    kernels::box_muller(w.w[2 * pair], w.w[2 * pair + 1], z0, z1);
    out[i] = convert<T>(mean + std * z0);
    if (i + 1 < n) out[i + 1] = convert<T>(mean + std * z1);
  }
}

template <class T>
__global__ void randint_kernel(T* out, int64_t n, uint64_t seed, uint64_t offset, int64_t low,
                               uint64_t range) {
  const int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  const bool narrow = range <= (uint64_t{1} << 32);
  const int64_t lanes = narrow ? 4 : 2;
  const int64_t base = c * lanes;
  if (base >= n) return;
  const philox::Words4 w = philox::block(seed, offset + static_cast<uint64_t>(c));
  for (int64_t l = 0; l < lanes && base + l < n; ++l) {
    const uint64_t v = narrow ? w.w[l]
                              : (static_cast<uint64_t>(w.w[2 * l]) |
                                 (static_cast<uint64_t>(w.w[2 * l + 1]) << 32));
    out[base + l] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + v % range));
  }
}

// ---- index checks (kernels/index_error.h): each thread checks one index; one thread merges
// the reports so the smallest bad position wins (Note [Index errors in kernels]).

template <class Index>
__global__ void check_indices_kernel(kernels::IndexError* errors, const Index* index, int64_t n,
                                     int64_t bound) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const int64_t v = static_cast<int64_t>(index[i]);
  errors[i] = v < 0 || v >= bound ? kernels::IndexError{i, v, bound} : kernels::IndexError{};
}

__global__ void merge_index_errors_kernel(kernels::IndexError* out,
                                          const kernels::IndexError* errors, int64_t n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  kernels::IndexError first;
  for (int64_t i = 0; i < n; ++i) first.merge(errors[i]);
  *out = first;
}

// Taking the address of a kernel template instantiates it as device code.
template <class K>
int touch(K kernel) {
  return reinterpret_cast<const void*>(kernel) != nullptr ? 1 : 0;
}

template <class T>
int instantiate_arithmetic() {
  using C = compute_t<T>;
  int n = 0;
  n += touch(binary_kernel<T, T, kernels::AddOp<C>>);
  n += touch(binary_kernel<T, T, kernels::PlainAddOp<C>>);
  n += touch(binary_kernel<T, T, kernels::SubOp<C>>);
  n += touch(binary_kernel<T, T, kernels::MulOp<C>>);
  n += touch(binary_kernel<T, T, kernels::DivOp<C>>);
  n += touch(binary_kernel<T, T, kernels::PowOp<C>>);
  n += touch(binary_kernel<T, T, kernels::MaximumOp<C>>);
  n += touch(binary_kernel<T, T, kernels::MinimumOp<C>>);
  n += touch(binary_kernel<T, bool, kernels::EqOp<C>>);
  n += touch(binary_kernel<T, bool, kernels::NeOp<C>>);
  n += touch(binary_kernel<T, bool, kernels::LtOp<C>>);
  n += touch(binary_kernel<T, bool, kernels::LeOp<C>>);
  n += touch(binary_kernel<T, bool, kernels::GtOp<C>>);
  n += touch(binary_kernel<T, bool, kernels::GeOp<C>>);
  n += touch(where_kernel<T>);
  n += touch(unary_kernel<T, kernels::ClampOp<C>>);
  n += touch(unary_kernel<T, kernels::AbsOp<C>>);
  n += touch(unary_kernel<T, kernels::ReluOp<C>>);
  return n;
}

template <class T>
int instantiate_signed() {
  return touch(unary_kernel<T, kernels::NegOp<compute_t<T>>>);
}

// bool's own kernels beside BoolAddOp/BoolMulOp: what the cpu dispatches for bool operands.
int instantiate_bool() {
  int n = 0;
  n += touch(binary_kernel<bool, bool, kernels::PowOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::MaximumOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::MinimumOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::EqOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::NeOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::LtOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::LeOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::GtOp<bool>>);
  n += touch(binary_kernel<bool, bool, kernels::GeOp<bool>>);
  n += touch(where_kernel<bool>);
  n += touch(unary_kernel<bool, kernels::ClampOp<bool>>);
  n += touch(unary_kernel<bool, kernels::AbsOp<bool>>);
  return n;
}

// sum into the dtype itself, min and max with indices: every dtype.
template <class T>
int instantiate_reductions() {
  return touch(sum_kernel<T, T>) + touch(min_max_kernel<T, true>) +
         touch(min_max_kernel<T, false>);
}

// Integer and bool sums promote to int64, as torch.
template <class T>
int instantiate_promoted_sum() {
  return touch(sum_kernel<T, int64_t>);
}

template <class T>
int instantiate_floating_random() {
  return touch(uniform_kernel<T>) + touch(normal_kernel<T>);
}

int instantiate_index_checks() {
  return touch(check_indices_kernel<int32_t>) + touch(check_indices_kernel<int64_t>) +
         touch(merge_index_errors_kernel);
}

template <class T>
int instantiate_floating() {
  using C = compute_t<T>;
  int n = 0;
  n += touch(unary_kernel<T, kernels::ExpOp<C>>);
  n += touch(unary_kernel<T, kernels::LogOp<C>>);
  n += touch(unary_kernel<T, kernels::SqrtOp<C>>);
  n += touch(unary_kernel<T, kernels::SigmoidOp<C>>);
  n += touch(unary_kernel<T, kernels::TanhOp<C>>);
  n += touch(unary_kernel<T, kernels::SquareOp<C>>);
  n += touch(unary_kernel<T, kernels::CubeOp<C>>);
  n += touch(unary_kernel<T, kernels::ReciprocalOp<C>>);
  n += touch(unary_kernel<T, kernels::InverseSquareOp<C>>);
  n += touch(unary_kernel<T, kernels::RsqrtOp<C>>);
  return n;
}

template <class To>
int instantiate_conversions_to() {
  return touch(convert_kernel<To, bool>) + touch(convert_kernel<To, uint8_t>) +
         touch(convert_kernel<To, int32_t>) + touch(convert_kernel<To, int64_t>) +
         touch(convert_kernel<To, Half>) + touch(convert_kernel<To, BFloat16>) +
         touch(convert_kernel<To, float>) + touch(convert_kernel<To, double>);
}

int count_all() {
  int n = 0;
  n += touch(binary_kernel<bool, bool, kernels::BoolAddOp>) + touch(binary_kernel<bool, bool, kernels::BoolMulOp>);
  n += instantiate_bool();
  // pow(x, 2) on integers takes SquareOp; uint8 negates (wrapping), as torch.
  n += touch(unary_kernel<uint8_t, kernels::SquareOp<uint8_t>>) +
       touch(unary_kernel<int32_t, kernels::SquareOp<int32_t>>) +
       touch(unary_kernel<int64_t, kernels::SquareOp<int64_t>>);
  n += touch(unary_kernel<uint8_t, kernels::NegOp<uint8_t>>);
  n += instantiate_arithmetic<uint8_t>() + instantiate_arithmetic<int32_t>() +
       instantiate_arithmetic<int64_t>() + instantiate_arithmetic<Half>() +
       instantiate_arithmetic<BFloat16>() + instantiate_arithmetic<float>() +
       instantiate_arithmetic<double>();
  n += instantiate_signed<int32_t>() + instantiate_signed<int64_t>() + instantiate_signed<Half>() +
       instantiate_signed<BFloat16>() + instantiate_signed<float>() + instantiate_signed<double>();
  n += instantiate_floating<Half>() + instantiate_floating<BFloat16>() +
       instantiate_floating<float>() + instantiate_floating<double>();
  n += instantiate_conversions_to<bool>() + instantiate_conversions_to<uint8_t>() +
       instantiate_conversions_to<int32_t>() + instantiate_conversions_to<int64_t>() +
       instantiate_conversions_to<Half>() + instantiate_conversions_to<BFloat16>() +
       instantiate_conversions_to<float>() + instantiate_conversions_to<double>();
  n += instantiate_reductions<bool>() + instantiate_reductions<uint8_t>() +
       instantiate_reductions<int32_t>() + instantiate_reductions<int64_t>() +
       instantiate_reductions<Half>() + instantiate_reductions<BFloat16>() +
       instantiate_reductions<float>() + instantiate_reductions<double>();
  n += instantiate_promoted_sum<bool>() + instantiate_promoted_sum<uint8_t>() +
       instantiate_promoted_sum<int32_t>();
  n += instantiate_floating_random<Half>() + instantiate_floating_random<BFloat16>() +
       instantiate_floating_random<float>() + instantiate_floating_random<double>();
  // randint serves every dtype (torch allows floating ones too).
  n += touch(randint_kernel<bool>) + touch(randint_kernel<uint8_t>) +
       touch(randint_kernel<int32_t>) + touch(randint_kernel<int64_t>) +
       touch(randint_kernel<Half>) + touch(randint_kernel<BFloat16>) +
       touch(randint_kernel<float>) + touch(randint_kernel<double>);
  n += instantiate_index_checks();
  return n;
}

}  // namespace

bool cuda_backend_compiled() { return true; }
int cuda_functor_instantiations() {
  static const int n = count_all();
  return n;
}

}  // namespace tide::backends
