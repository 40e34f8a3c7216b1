// Note [CUDA functor check]: until the real CUDA backend lands, this file instantiates every
// element functor for every dtype it serves as __global__ device code, so every CI run proves
// the shared functors (kernels/functors.h, kernels/convert.h) are device-compilable.

#include <cuda_runtime.h>

#include "backends/cuda_backend_info.h"
#include "kernels/convert.h"
#include "kernels/functors.h"
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
  n += touch(unary_kernel<int64_t, kernels::SquareOp<int64_t>>);
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
  return n;
}

}  // namespace

bool cuda_backend_compiled() { return true; }
int cuda_functor_instantiations() {
  static const int n = count_all();
  return n;
}

}  // namespace tide::backends
