// The tide side of tide_vs_torch_gpu_bench: every case through tide's public API on device 0,
// on the current stream (the default stream unless the case says otherwise). Inputs are
// filled by the raw kernels, so every side computes on the same values.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "backends/cuda/raw_stream.h"
#include "cases.h"
#include "counters.h"
#include "raw_cuda.h"
#include "raw_kernels.h"
#include "replay_trace.h"
#include "tide/cuda.h"
#include "tide/tide.h"

namespace tide::bench::gpu {
namespace {

const Device kGpu(kCUDA, 0);

using backends::cuda::raw_stream;
cudaStream_t current() { return raw_stream(cuda::current_stream(0)); }

Tensor filled_f32(std::vector<int64_t> sizes, uint32_t seed) {
  Tensor t = empty(std::move(sizes), TensorOptions(kGpu).dtype(kFloat32));
  raw_fill_f32(t.data_ptr<float>(), t.numel(), seed, current());
  return t;
}

Tensor filled_bf16(std::vector<int64_t> sizes, uint32_t seed) {
  Tensor t = empty(std::move(sizes), TensorOptions(kGpu).dtype(kBFloat16));
  raw_fill_bf16(t.raw_data(), t.numel(), seed, current());
  return t;
}

void malloc_free_pair(benchmark::State& state) {
  const TensorOptions options = TensorOptions(kGpu).dtype(kFloat32);
  { Tensor warm = empty({kPairNumel}, options); }  // the block is cached from here on
  for (auto _ : state) {
    Tensor t = empty({kPairNumel}, options);
    benchmark::DoNotOptimize(t);
  }
}

void tiny_add(benchmark::State& state) {
  Tensor a = filled_f32({1}, 1), b = filled_f32({1}, 2);
  { Tensor warm = add(a, b); }
  cuda::synchronize(0);
  while (state.KeepRunningBatch(kTinyBatch)) {
    for (int i = 0; i < kTinyBatch; ++i) {
      Tensor c = add(a, b);
      benchmark::DoNotOptimize(c);
    }
    cuda::current_stream(0).synchronize();
  }
}

void add_f32(benchmark::State& state) {
  Tensor a = filled_f32({kBigNumel}, 1), b = filled_f32({kBigNumel}, 2);
  Tensor out = empty({kBigNumel}, TensorOptions(kGpu).dtype(kFloat32));
  add_out(out, a, b);
  cuda::synchronize(0);
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(current());
    add_out(out, a, b);
    const double s = timer.stop_seconds(current());
    state.SetIterationTime(s);
    total += s;
  }
  report_bandwidth(state, 3 * kBigNumel * int64_t{sizeof(float)}, total);
}

void sum_f32(benchmark::State& state) {
  Tensor a = filled_f32({kBigNumel}, 1);
  Tensor out = empty({}, TensorOptions(kGpu).dtype(kFloat32));
  sum_out(out, a);
  cuda::synchronize(0);
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(current());
    sum_out(out, a);
    const double s = timer.stop_seconds(current());
    state.SetIterationTime(s);
    total += s;
  }
  report_bandwidth(state, kBigNumel * int64_t{sizeof(float)}, total);
}

void matmul_case(benchmark::State& state, Dtype dtype) {
  const std::vector<int64_t> square{kMatmulSize, kMatmulSize};
  Tensor a = dtype == kBFloat16 ? filled_bf16(square, 1) : filled_f32(square, 1);
  Tensor b = dtype == kBFloat16 ? filled_bf16(square, 2) : filled_f32(square, 2);
  { Tensor warm = matmul(a, b); }  // creates the cuBLAS handle and workspace
  cuda::synchronize(0);
  EventTimer timer;
  double total = 0;
  for (auto _ : state) {
    timer.start(current());
    Tensor c = matmul(a, b);
    const double s = timer.stop_seconds(current());
    benchmark::DoNotOptimize(c);
    state.SetIterationTime(s);
    total += s;
  }
  report_matmul_flops(state, kMatmulSize, total);
}

void matmul_f32(benchmark::State& state) { matmul_case(state, kFloat32); }
void matmul_bf16(benchmark::State& state) { matmul_case(state, kBFloat16); }

/// Host memory of kCopyBytes: pinned, or pageable with every page touched before timing.
Tensor host_bytes(bool pinned) {
  Tensor t = empty({kCopyBytes}, TensorOptions(kUInt8).pinned_memory(pinned));
  std::memset(t.raw_data(), 1, static_cast<size_t>(kCopyBytes));
  return t;
}

Tensor device_bytes() { return empty({kCopyBytes}, TensorOptions(kGpu).dtype(kUInt8)); }

/// dst.copy_(src, non_blocking) and a wait for the stream, timed on the wall clock.
void copy_case(benchmark::State& state, Tensor dst, const Tensor& src, bool non_blocking) {
  dst.copy_(src, non_blocking);
  cuda::synchronize(0);
  for (auto _ : state) {
    dst.copy_(src, non_blocking);
    cuda::current_stream(0).synchronize();
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

// Note [Overlap case]: a pinned host→device copy of kCopyBytes on one pooled stream and
// `reps` adds of kOverlapNumel floats on another, `reps` chosen once so the compute takes
// about as long as the copy. Each iteration times the copy alone, the compute alone and both
// enqueued together (wall clock, waiting for both streams); the reported time is the overlapped
// run, and `ratio` = overlapped ÷ max(copy, compute): 1.0 is perfect overlap, 2.0 none.
void overlap(benchmark::State& state) {
  cuda::Stream copy_stream(0), compute_stream(0);
  if (copy_stream == compute_stream) compute_stream = cuda::Stream(0);
  Tensor src = host_bytes(true), dst = device_bytes();
  Tensor a = filled_f32({kOverlapNumel}, 1), b = filled_f32({kOverlapNumel}, 2);
  Tensor out = empty({kOverlapNumel}, TensorOptions(kGpu).dtype(kFloat32));
  cuda::synchronize(0);

  auto enqueue_copy = [&] {
    cuda::StreamGuard guard(copy_stream);
    dst.copy_(src, /*non_blocking=*/true);
  };
  auto enqueue_compute = [&](int reps) {
    cuda::StreamGuard guard(compute_stream);
    for (int i = 0; i < reps; ++i) add_out(out, a, b);
  };
  auto timed = [](auto&& enqueue, const std::vector<cuda::Stream>& streams) {
    Stopwatch watch;
    enqueue();
    for (const cuda::Stream& s : streams) s.synchronize();
    return watch.seconds();
  };

  timed(enqueue_copy, {copy_stream});  // warm both paths
  timed([&] { enqueue_compute(1); }, {compute_stream});
  const double one_copy = timed(enqueue_copy, {copy_stream});
  const double one_add = timed([&] { enqueue_compute(1); }, {compute_stream});
  const int reps = std::max(1, static_cast<int>(std::lround(one_copy / std::max(one_add, 1e-9))));

  double copy_total = 0, compute_total = 0, both_total = 0;
  for (auto _ : state) {
    copy_total += timed(enqueue_copy, {copy_stream});
    compute_total += timed([&] { enqueue_compute(reps); }, {compute_stream});
    const double both = timed(
        [&] {
          enqueue_copy();
          enqueue_compute(reps);
        },
        {copy_stream, compute_stream});
    both_total += both;
    state.SetIterationTime(both);
  }
  const double n = static_cast<double>(std::max<int64_t>(state.iterations(), 1));
  state.counters["copy_ms"] = copy_total / n * 1e3;
  state.counters["compute_ms"] = compute_total / n * 1e3;
  state.counters["overlap_ms"] = both_total / n * 1e3;
  state.counters["ratio"] = both_total / std::max(std::max(copy_total, compute_total), 1e-12);
  state.counters["compute_adds"] = reps;
}

// PeakReserved: one replay of the trace per iteration from an empty cache (Note [Replayed
// trace]); peak_reserved_bytes is what a report compares, not the time.
void peak_reserved(benchmark::State& state) {
  const std::vector<ReplayEvent>& events = replay_events();
  const TensorOptions options = TensorOptions(kGpu).dtype(kUInt8);
  int64_t peak_reserved_bytes = 0, peak_allocated_bytes = 0;
  for (auto _ : state) {
    cuda::synchronize(0);
    cuda::empty_cache();
    cuda::reset_peak_memory_stats(0);
    const int64_t base_reserved = cuda::memory_reserved(0);
    const int64_t base_allocated = cuda::memory_allocated(0);
    {
      std::unordered_map<uint64_t, Tensor> live;
      live.reserve(4096);
      for (const ReplayEvent& e : events) {
        if (e.alloc) {
          live.insert_or_assign(e.addr, empty({e.bytes}, options));
        } else {
          live.erase(e.addr);
        }
      }
    }
    peak_reserved_bytes = cuda::max_memory_reserved(0) - base_reserved;
    peak_allocated_bytes = cuda::max_memory_allocated(0) - base_allocated;
  }
  cuda::empty_cache();  // the other side's replay starts from the same free device memory
  state.counters["peak_reserved_bytes"] = static_cast<double>(peak_reserved_bytes);
  state.counters["peak_allocated_bytes"] = static_cast<double>(peak_allocated_bytes);
  state.counters["reserved/allocated"] =
      static_cast<double>(peak_reserved_bytes) / static_cast<double>(std::max<int64_t>(peak_allocated_bytes, 1));
  state.counters["events"] = static_cast<double>(events.size());
}

}  // namespace

void register_tide_cases() {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("MallocFreePair/tide", malloc_free_pair)->UseRealTime()->Unit(benchmark::kNanosecond);
  RegisterBenchmark("TinyAdd/tide", tiny_add)->UseRealTime()->Unit(benchmark::kNanosecond);
  RegisterBenchmark("AddF32_2^28/tide", add_f32)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("SumF32_2^28/tide", sum_f32)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("MatmulF32_8192/tide", matmul_f32)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("MatmulBF16_8192/tide", matmul_bf16)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyH2DPinned/tide", copy_h2d_pinned)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyH2DPageable/tide", copy_h2d_pageable)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("CopyD2HPinned/tide", copy_d2h_pinned)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("Overlap/tide", overlap)->UseManualTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark("PeakReserved/tide", peak_reserved)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace tide::bench::gpu
