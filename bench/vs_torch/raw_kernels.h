#pragma once
// Raw CUDA kernels (raw_kernels.cu): the baselines a library's op is measured against, and
// fills that give every side's inputs values without depending on any library's random ops.
// Every function launches on `stream` and checks the launch.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tide::bench::gpu {

/// c[0] = a[0] + b[0] in one thread: the least a 1-element add can cost (TinyAdd/raw).
void raw_tiny_add(const float* a, const float* b, float* c, cudaStream_t stream);
/// c = a + b over n floats, 16-byte vector loads (AddF32_2^28/raw).
void raw_add_f32(const float* a, const float* b, float* c, int64_t n, cudaStream_t stream);
/// Temporary bytes raw_sum_f32 needs for n elements.
size_t raw_sum_temp_bytes(int64_t n);
/// out[0] = sum of a's n floats through cub::DeviceReduce::Sum (SumF32_2^28/raw).
void raw_sum_f32(const float* a, float* out, int64_t n, void* temp, size_t temp_bytes,
                 cudaStream_t stream);
/// Deterministic values in [-1, 1): float32, and bfloat16 (`p` holds __nv_bfloat16).
void raw_fill_f32(float* p, int64_t n, uint32_t seed, cudaStream_t stream);
void raw_fill_bf16(void* p, int64_t n, uint32_t seed, cudaStream_t stream);

}  // namespace tide::bench::gpu
