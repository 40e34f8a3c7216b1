// The raw-CUDA baselines of tide_vs_torch_gpu_bench (raw_kernels.h): plain kernels written the
// way a CUDA programmer would for the one case, with no dispatch, no dtype or layout generality.

#include "raw_kernels.h"

#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>

#include <algorithm>

#include "raw_cuda.h"

namespace tide::bench::gpu {
namespace {

constexpr int kThreads = 256;

__global__ void tiny_add_kernel(const float* a, const float* b, float* c) { c[0] = a[0] + b[0]; }

// Grid-stride over float4s; cudaMalloc'd pointers are 256-byte aligned, so the vector part is
// aligned, and the n % 4 tail is handled by the first threads of the grid.
__global__ void add_f32_kernel(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t n4 = n / 4;
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* c4 = reinterpret_cast<float4*>(c);
  for (int64_t i = first; i < n4; i += stride) {
    const float4 x = a4[i], y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  const int64_t tail = n4 * 4 + first;
  if (tail < n) c[tail] = a[tail] + b[tail];
}

// A 32-bit integer hash (lowbias32) of (index, seed), mapped to [-1, 1).
__device__ inline float hashed_value(int64_t i, uint32_t seed) {
  uint32_t x = static_cast<uint32_t>(i) ^ (static_cast<uint32_t>(i >> 32) * 0x9E3779B9u) ^ seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return static_cast<float>(x >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

__global__ void fill_f32_kernel(float* p, int64_t n, uint32_t seed) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    p[i] = hashed_value(i, seed);
  }
}

__global__ void fill_bf16_kernel(__nv_bfloat16* p, int64_t n, uint32_t seed) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    p[i] = __float2bfloat16(hashed_value(i, seed));
  }
}

/// Enough blocks of kThreads to fill every SM a few times over (the kernels stride over the
/// rest), never more than the work needs, at least one.
unsigned grid_for(int64_t work_items) {
  static const int64_t max_blocks = [] {
    int device = 0, sms = 0;
    BENCH_CUDA_CHECK(cudaGetDevice(&device));
    BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return static_cast<int64_t>(std::max(sms, 1)) * 32;
  }();
  const int64_t needed = (work_items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::clamp<int64_t>(needed, 1, max_blocks));
}

}  // namespace

void raw_tiny_add(const float* a, const float* b, float* c, cudaStream_t stream) {
  tiny_add_kernel<<<1, 1, 0, stream>>>(a, b, c);
  BENCH_CUDA_CHECK(cudaGetLastError());
}

void raw_add_f32(const float* a, const float* b, float* c, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  add_f32_kernel<<<grid_for(std::max<int64_t>(n / 4, 1)), kThreads, 0, stream>>>(a, b, c, n);
  BENCH_CUDA_CHECK(cudaGetLastError());
}

size_t raw_sum_temp_bytes(int64_t n) {
  size_t bytes = 0;
  BENCH_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                          static_cast<float*>(nullptr), n));
  return bytes;
}

void raw_sum_f32(const float* a, float* out, int64_t n, void* temp, size_t temp_bytes,
                 cudaStream_t stream) {
  BENCH_CUDA_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, a, out, n, stream));
}

void raw_fill_f32(float* p, int64_t n, uint32_t seed, cudaStream_t stream) {
  if (n <= 0) return;
  fill_f32_kernel<<<grid_for(n), kThreads, 0, stream>>>(p, n, seed);
  BENCH_CUDA_CHECK(cudaGetLastError());
}

void raw_fill_bf16(void* p, int64_t n, uint32_t seed, cudaStream_t stream) {
  if (n <= 0) return;
  fill_bf16_kernel<<<grid_for(n), kThreads, 0, stream>>>(static_cast<__nv_bfloat16*>(p), n, seed);
  BENCH_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tide::bench::gpu
