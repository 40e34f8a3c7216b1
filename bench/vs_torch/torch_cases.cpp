// The torch side of tide_vs_torch_gpu_bench: every case through libtorch's C++ API (ATen and
// c10's CUDA caching allocator) on device 0, on torch's current stream, timed exactly as the
// tide side (Note [GPU bench timing] in cases.h). No tide header is included here.

#include <ATen/ATen.h>
#include <benchmark/benchmark.h>
#include <c10/core/InferenceMode.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/cuda.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "cases.h"
#include "counters.h"
#include "raw_cuda.h"
#include "raw_kernels.h"

// PeakReserved replays tide's synthetic trace (replay_trace.cpp reads it through tide's
// snapshot code), so it is here only in the one-process build; the torch side compiled on a
// GPU machine (Note [Two processes] in torch_gpu_bench.cpp) leaves it out.
#ifndef TIDE_BENCH_TORCH_REPLAY
#define TIDE_BENCH_TORCH_REPLAY 0
#endif
#if TIDE_BENCH_TORCH_REPLAY
#include "replay_trace.h"
#endif

namespace tide::bench::gpu {
namespace {

at::TensorOptions on_gpu(at::ScalarType dtype) {
  return at::TensorOptions().dtype(dtype).device(at::Device(at::kCUDA, 0));
}

c10::cuda::CUDAStream torch_stream() { return c10::cuda::getCurrentCUDAStream(0); }
cudaStream_t current() { return torch_stream().stream(); }

at::Tensor filled(std::vector<int64_t> sizes, at::ScalarType dtype, uint32_t seed) {
  at::Tensor t = at::empty(sizes, on_gpu(dtype));
  if (dtype == at::kBFloat16) {
    raw_fill_bf16(t.data_ptr(), t.numel(), seed, current());
  } else {
    raw_fill_f32(t.data_ptr<float>(), t.numel(), seed, current());
  }
  return t;
}

void malloc_free_pair(benchmark::State& state) {
  const at::TensorOptions options = on_gpu(at::kFloat);
  { at::Tensor warm = at::empty({kPairNumel}, options); }
  for (auto _ : state) {
    at::Tensor t = at::empty({kPairNumel}, options);
    benchmark::DoNotOptimize(t);
  }
}

void tiny_add_loop(benchmark::State& state) {
  at::Tensor a = filled({1}, at::kFloat, 1), b = filled({1}, at::kFloat, 2);
  { at::Tensor warm = at::add(a, b); }
  torch_stream().synchronize();
  while (state.KeepRunningBatch(kTinyBatch)) {
    for (int i = 0; i < kTinyBatch; ++i) {
      at::Tensor c = at::add(a, b);
      benchmark::DoNotOptimize(c);
    }
    torch_stream().synchronize();
  }
}

void tiny_add(benchmark::State& state) { tiny_add_loop(state); }

// Not paired with a tide case: libtorch with autograd dispatch switched off, to show how much
// of its per-op time is the autograd layer (as add_1_inference_mode in vs_libtorch).
void tiny_add_inference_mode(benchmark::State& state) {
  c10::InferenceMode guard;
  tiny_add_loop(state);
}

void add_f32(benchmark::State& state) {
  at::Tensor a = filled({kBigNumel}, at::kFloat, 1), b = filled({kBigNumel}, at::kFloat, 2);
  at::Tensor out = at::empty({kBigNumel}, on_gpu(at::kFloat));
  at::add_out(out, a, b);
  torch_stream().synchronize();
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(current());
    at::add_out(out, a, b);
    const double s = timer.stop_seconds(current());
    state.SetIterationTime(s);
    total += s;
  }
  report_bandwidth(state, 3 * kBigNumel * int64_t{sizeof(float)}, total);
}

void sum_f32(benchmark::State& state) {
  at::Tensor a = filled({kBigNumel}, at::kFloat, 1);
  at::Tensor out = at::empty({}, on_gpu(at::kFloat));
  at::sum_out(out, a);
  torch_stream().synchronize();
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(current());
    at::sum_out(out, a);
    const double s = timer.stop_seconds(current());
    state.SetIterationTime(s);
    total += s;
  }
  report_bandwidth(state, kBigNumel * int64_t{sizeof(float)}, total);
}

void matmul_case(benchmark::State& state, at::ScalarType dtype) {
  at::Tensor a = filled({kMatmulSize, kMatmulSize}, dtype, 1);
  at::Tensor b = filled({kMatmulSize, kMatmulSize}, dtype, 2);
  { at::Tensor warm = at::matmul(a, b); }
  torch_stream().synchronize();
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(current());
    at::Tensor c = at::matmul(a, b);
    const double s = timer.stop_seconds(current());
    benchmark::DoNotOptimize(c);
    state.SetIterationTime(s);
    total += s;
  }
  report_matmul_flops(state, kMatmulSize, total);
}

void matmul_f32(benchmark::State& state) { matmul_case(state, at::kFloat); }
void matmul_bf16(benchmark::State& state) { matmul_case(state, at::kBFloat16); }

at::Tensor host_bytes(bool pinned) {
  at::Tensor t = at::empty({kCopyBytes}, at::TensorOptions().dtype(at::kByte).pinned_memory(pinned));
  std::memset(t.data_ptr(), 1, static_cast<size_t>(kCopyBytes));
  return t;
}

at::Tensor device_bytes() { return at::empty({kCopyBytes}, on_gpu(at::kByte)); }

void copy_case(benchmark::State& state, at::Tensor dst, const at::Tensor& src, bool non_blocking) {
  dst.copy_(src, non_blocking);
  torch_stream().synchronize();
  for (auto _ : state) {
    dst.copy_(src, non_blocking);
    torch_stream().synchronize();
  }
  state.SetBytesProcessed(state.iterations() * kCopyBytes);
}

void copy_h2d_pinned(benchmark::State& state) {
  copy_case(state, device_bytes(), host_bytes(true), true);
}
void copy_h2d_pageable(benchmark::State& state) {
  copy_case(state, device_bytes(), host_bytes(false), false);
}
void copy_d2h_pinned(benchmark::State& state) {
  copy_case(state, host_bytes(true), device_bytes(), true);
}

#if TIDE_BENCH_TORCH_REPLAY
// As PeakReserved/tide: one replay per iteration from an empty cache. Statistic index 0 is
// StatType::AGGREGATE in every libtorch (the enum moved between headers across versions).
void peak_reserved(benchmark::State& state) {
  namespace alloc = c10::cuda::CUDACachingAllocator;
  constexpr size_t kAggregate = 0;
  const c10::DeviceIndex device = 0;
  const std::vector<ReplayEvent>& events = replay_events();
  const at::TensorOptions options = on_gpu(at::kByte);
  int64_t peak_reserved_bytes = 0, peak_allocated_bytes = 0;
  for (auto _ : state) {
    torch_stream().synchronize();
    alloc::emptyCache();
    alloc::resetPeakStats(device);
    const auto before = alloc::getDeviceStats(device);
    {
      std::unordered_map<uint64_t, at::Tensor> live;
      live.reserve(4096);
      for (const ReplayEvent& e : events) {
        if (e.alloc) {
          live.insert_or_assign(e.addr, at::empty({e.bytes}, options));
        } else {
          live.erase(e.addr);
        }
      }
    }
    const auto after = alloc::getDeviceStats(device);
    peak_reserved_bytes = after.reserved_bytes[kAggregate].peak - before.reserved_bytes[kAggregate].current;
    peak_allocated_bytes = after.allocated_bytes[kAggregate].peak - before.allocated_bytes[kAggregate].current;
  }
  alloc::emptyCache();
  state.counters["peak_reserved_bytes"] = static_cast<double>(peak_reserved_bytes);
  state.counters["peak_allocated_bytes"] = static_cast<double>(peak_allocated_bytes);
  state.counters["reserved/allocated"] =
      static_cast<double>(peak_reserved_bytes) / static_cast<double>(std::max<int64_t>(peak_allocated_bytes, 1));
  state.counters["events"] = static_cast<double>(events.size());
}
#endif

}  // namespace

bool torch_cuda_ready(const char** why) {
  if (!torch::cuda::is_available() || torch::cuda::device_count() < 1) {
    *why = "libtorch sees no CUDA device (its CUDA runtime may be newer than the driver)";
    return false;
  }
  return true;
}

void register_torch_cases() {
  benchmark::AddCustomContext("torch_version", TIDE_BENCH_TORCH_VERSION);
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("MallocFreePair/torch", malloc_free_pair)->UseRealTime()->Unit(benchmark::kNanosecond);
  RegisterBenchmark("TinyAdd/torch", tiny_add)->UseRealTime()->Unit(benchmark::kNanosecond);
  RegisterBenchmark("TinyAddInferenceMode/torch", tiny_add_inference_mode)
      ->UseRealTime()
      ->Unit(benchmark::kNanosecond);
  RegisterBenchmark("AddF32_2^28/torch", add_f32)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("SumF32_2^28/torch", sum_f32)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("MatmulF32_8192/torch", matmul_f32)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("MatmulBF16_8192/torch", matmul_bf16)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyH2DPinned/torch", copy_h2d_pinned)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyH2DPageable/torch", copy_h2d_pageable)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyD2HPinned/torch", copy_d2h_pinned)->UseRealTime()->Unit(benchmark::kMillisecond);
#if TIDE_BENCH_TORCH_REPLAY
  RegisterBenchmark("PeakReserved/torch", peak_reserved)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif
}

}  // namespace tide::bench::gpu
