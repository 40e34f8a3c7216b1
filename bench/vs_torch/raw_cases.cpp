// The raw-CUDA side of tide_vs_torch_gpu_bench: what each case costs with no library at all
// (kernel launches, cub, cuBLAS, cudaMemcpyAsync) on a stream of its own, timed exactly as
// the tide and torch sides are (Note [GPU bench timing] in cases.h).

#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "cases.h"
#include "counters.h"
#include "raw_cuda.h"
#include "raw_kernels.h"

namespace tide::bench::gpu {
namespace {

using Kind = RawBuffer::Kind;

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed: cuBLAS status " +
                             std::to_string(static_cast<int>(status)));
  }
}
#define BENCH_CUBLAS_CHECK(expr) check_cublas((expr), #expr)

/// A cuBLAS handle bound to `stream`, with cuBLAS's default math mode (no TF32 for float32:
/// torch's and tide's default "highest" float32 matmul precision).
class Cublas {
 public:
  explicit Cublas(cudaStream_t stream) {
    BENCH_CUBLAS_CHECK(cublasCreate(&h_));
    BENCH_CUBLAS_CHECK(cublasSetStream(h_, stream));
  }
  ~Cublas() { cublasDestroy(h_); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  cublasHandle_t get() const { return h_; }

 private:
  cublasHandle_t h_ = nullptr;
};

size_t f32_bytes(int64_t n) { return static_cast<size_t>(n) * sizeof(float); }

void tiny_add(benchmark::State& state) {
  RawStream stream;
  RawBuffer abc(Kind::kDevice, 3 * sizeof(float));
  float* p = abc.get<float>();
  raw_fill_f32(p, 2, 1, stream.get());
  raw_tiny_add(p, p + 1, p + 2, stream.get());
  stream.synchronize();
  while (state.KeepRunningBatch(kTinyBatch)) {
    for (int i = 0; i < kTinyBatch; ++i) raw_tiny_add(p, p + 1, p + 2, stream.get());
    stream.synchronize();
  }
}

void add_f32(benchmark::State& state) {
  RawStream stream;
  RawBuffer a(Kind::kDevice, f32_bytes(kBigNumel)), b(Kind::kDevice, f32_bytes(kBigNumel));
  RawBuffer c(Kind::kDevice, f32_bytes(kBigNumel));
  raw_fill_f32(a.get<float>(), kBigNumel, 1, stream.get());
  raw_fill_f32(b.get<float>(), kBigNumel, 2, stream.get());
  raw_add_f32(a.get<float>(), b.get<float>(), c.get<float>(), kBigNumel, stream.get());
  stream.synchronize();
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(stream.get());
    raw_add_f32(a.get<float>(), b.get<float>(), c.get<float>(), kBigNumel, stream.get());
    const double s = timer.stop_seconds(stream.get());
    state.SetIterationTime(s);
    total += s;
  }
  report_bandwidth(state, 3 * kBigNumel * int64_t{sizeof(float)}, total);
}

void sum_f32(benchmark::State& state) {
  RawStream stream;
  RawBuffer a(Kind::kDevice, f32_bytes(kBigNumel)), out(Kind::kDevice, sizeof(float));
  const size_t temp_bytes = raw_sum_temp_bytes(kBigNumel);
  RawBuffer temp(Kind::kDevice, temp_bytes > 0 ? temp_bytes : 1);
  raw_fill_f32(a.get<float>(), kBigNumel, 1, stream.get());
  raw_sum_f32(a.get<float>(), out.get<float>(), kBigNumel, temp.get(), temp_bytes, stream.get());
  stream.synchronize();
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(stream.get());
    raw_sum_f32(a.get<float>(), out.get<float>(), kBigNumel, temp.get(), temp_bytes, stream.get());
    const double s = timer.stop_seconds(stream.get());
    state.SetIterationTime(s);
    total += s;
  }
  report_bandwidth(state, kBigNumel * int64_t{sizeof(float)}, total);
}

/// C = A·B of n×n row-major matrices: cuBLAS is column-major, so it computes Cᵀ = Bᵀ·Aᵀ by
/// passing B first (the usual trick; both libraries call cuBLAS the same way).
void matmul_case(benchmark::State& state, bool bf16) {
  const int64_t n = kMatmulSize;
  const size_t elem = bf16 ? 2 : sizeof(float);  // bfloat16: 2 bytes
  const size_t bytes = static_cast<size_t>(n * n) * elem;
  RawStream stream;
  RawBuffer a(Kind::kDevice, bytes), b(Kind::kDevice, bytes), c(Kind::kDevice, bytes);
  if (bf16) {
    raw_fill_bf16(a.get(), n * n, 1, stream.get());
    raw_fill_bf16(b.get(), n * n, 2, stream.get());
  } else {
    raw_fill_f32(a.get<float>(), n * n, 1, stream.get());
    raw_fill_f32(b.get<float>(), n * n, 2, stream.get());
  }
  Cublas blas(stream.get());
  const int dim = static_cast<int>(n);
  const float alpha = 1.0f, beta = 0.0f;
  auto product = [&] {
    if (bf16) {
      BENCH_CUBLAS_CHECK(cublasGemmEx(blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim, &alpha,
                                      b.get(), CUDA_R_16BF, dim, a.get(), CUDA_R_16BF, dim, &beta,
                                      c.get(), CUDA_R_16BF, dim, CUBLAS_COMPUTE_32F,
                                      CUBLAS_GEMM_DEFAULT));
    } else {
      BENCH_CUBLAS_CHECK(cublasSgemm(blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim, &alpha,
                                     b.get<float>(), dim, a.get<float>(), dim, &beta,
                                     c.get<float>(), dim));
    }
  };
  product();  // cuBLAS's first call picks and loads its kernel
  stream.synchronize();
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(stream.get());
    product();
    const double s = timer.stop_seconds(stream.get());
    state.SetIterationTime(s);
    total += s;
  }
  report_matmul_flops(state, n, total);
}

void matmul_f32(benchmark::State& state) { matmul_case(state, false); }
void matmul_bf16(benchmark::State& state) { matmul_case(state, true); }

/// cudaMemcpyAsync of kCopyBytes on the raw stream and a wait for it, on the wall clock.
void copy_case(benchmark::State& state, void* dst, const void* src, cudaMemcpyKind kind) {
  RawStream stream;
  auto copy = [&] {
    BENCH_CUDA_CHECK(cudaMemcpyAsync(dst, src, static_cast<size_t>(kCopyBytes), kind, stream.get()));
    stream.synchronize();
  };
  copy();
  for (auto _ : state) copy();
  state.SetBytesProcessed(state.iterations() * kCopyBytes);
}

void copy_h2d_pinned(benchmark::State& state) {
  RawBuffer host(Kind::kPinned, static_cast<size_t>(kCopyBytes));
  RawBuffer device(Kind::kDevice, static_cast<size_t>(kCopyBytes));
  std::memset(host.get(), 1, static_cast<size_t>(kCopyBytes));
  copy_case(state, device.get(), host.get(), cudaMemcpyHostToDevice);
}

void copy_h2d_pageable(benchmark::State& state) {
  std::unique_ptr<unsigned char[]> host(new unsigned char[static_cast<size_t>(kCopyBytes)]);
  std::memset(host.get(), 1, static_cast<size_t>(kCopyBytes));  // fault every page in first
  RawBuffer device(Kind::kDevice, static_cast<size_t>(kCopyBytes));
  copy_case(state, device.get(), host.get(), cudaMemcpyHostToDevice);
}

void copy_d2h_pinned(benchmark::State& state) {
  RawBuffer host(Kind::kPinned, static_cast<size_t>(kCopyBytes));
  RawBuffer device(Kind::kDevice, static_cast<size_t>(kCopyBytes));
  BENCH_CUDA_CHECK(cudaMemset(device.get(), 1, static_cast<size_t>(kCopyBytes)));
  copy_case(state, host.get(), device.get(), cudaMemcpyDeviceToHost);
}

}  // namespace

void register_raw_cases() {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("TinyAdd/raw", tiny_add)->UseRealTime()->Unit(benchmark::kNanosecond);
  RegisterBenchmark("AddF32_2^28/raw", add_f32)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("SumF32_2^28/raw", sum_f32)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("MatmulF32_8192/raw", matmul_f32)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("MatmulBF16_8192/raw", matmul_bf16)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyH2DPinned/raw", copy_h2d_pinned)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyH2DPageable/raw", copy_h2d_pageable)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyD2HPinned/raw", copy_d2h_pinned)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace tide::bench::gpu
