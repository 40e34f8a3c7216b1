// The caching device allocator's costs: a cached malloc+free pair (the allocator alone, over
// an in-process upstream, and the public path tide::empty + drop on simulated GPUs), on one
// thread and on two (two streams of one device's allocator, which share its mutex, and two
// devices), and how much memory a long synthetic training trace reserves for what it
// allocates, replayed through memory/replay.h with torch's allocator settings. Runs on 2
// simulated GPUs whatever the environment says.
//
// Note [Pair timing]: a "pair" is malloc + free of a 1 KiB block (tide::empty({256}) of
// float32) that the allocator already caches, so no raw device memory is taken in the timed
// loop. Two-thread cases report, as Google Benchmark does, wall time ÷ the iterations of
// both threads (throughput); `thread_ns_per_pair` is each thread's own wall time per pair,
// averaged over the threads (latency, what one thread waits).
//
// The replay uses the synthetic training trace (bench/training_trace.h, Note [Synthetic training
// trace]). The `reserved/allocated` counter is peak reserved ÷ peak allocated bytes (1.0: no
// memory lost to rounding, splitting or caching).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench_main.h"
#include "memory/allocator_config.h"
#include "memory/caching_allocator.h"
#include "memory/replay.h"
#include "memory/snapshot.h"
#include "memory/unlimited_upstream.h"
#include "memory/upstream.h"
#include "tide/cuda.h"
#include "tide/cuda/stream_guard.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"
#include "training_trace.h"

namespace {

using namespace tide;
using memory::AllocatorConfig;
using memory::Block;
using memory::CachingAllocator;

constexpr size_t kPairBytes = 256 * sizeof(float);  // Note [Pair timing]

// Only the cached path runs in the timed loops, so the upstream is called during warm-up alone.
std::unique_ptr<CachingAllocator> make_allocator(int device) {
  return std::make_unique<CachingAllocator>(device, std::make_unique<memory::UnlimitedUpstream>(),
                                            AllocatorConfig{});
}

/// Each thread's wall time per pair since `start`, averaged over the threads (Note [Pair
/// timing]).
void report_thread_ns_per_pair(benchmark::State& state,
                               std::chrono::steady_clock::time_point start) {
  const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
  state.counters["thread_ns_per_pair"] =
      benchmark::Counter(elapsed.count() / static_cast<double>(state.iterations()),
                         benchmark::Counter::kAvgThreads);
}

/// Warms `alloc`'s cache for `stream`, then times cached pairs on it.
void time_pairs(benchmark::State& state, CachingAllocator& alloc, uint64_t stream) {
  alloc.free(alloc.malloc(kPairBytes, stream));
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    Block* b = alloc.malloc(kPairBytes, stream);
    benchmark::DoNotOptimize(b);
    alloc.free(b);
  }
  report_thread_ns_per_pair(state, start);
}

// ---- The allocator alone (Note [Pair timing])

void pair_allocator_1_thread(benchmark::State& state) {
  auto alloc = make_allocator(0);
  time_pairs(state, *alloc, 0);
}

/// Both threads on one allocator, each on its own stream: they share its mutex.
void pair_allocator_2_threads_same_device(benchmark::State& state) {
  static CachingAllocator& shared = *make_allocator(0).release();  // lives for the process
  time_pairs(state, shared, static_cast<uint64_t>(state.thread_index()) + 1);
}

/// Each thread on its own device's allocator.
void pair_allocator_2_threads_own_device(benchmark::State& state) {
  static CachingAllocator* devices[2] = {make_allocator(0).release(), make_allocator(1).release()};
  time_pairs(state, *devices[state.thread_index()], 0);
}

// ---- The public path: tide::empty({256}, cuda:N) and dropping the tensor

/// Times cached tide::empty + drop on cuda:`device`'s current stream (set by the caller).
void time_empty_pairs(benchmark::State& state, int device) {
  const TensorOptions options(Device(kCUDA, device));
  { Tensor warm = empty({256}, options); }
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    Tensor t = empty({256}, options);
    benchmark::DoNotOptimize(t);
  }
  report_thread_ns_per_pair(state, start);
}

void pair_empty_1_thread(benchmark::State& state) { time_empty_pairs(state, 0); }

/// Both threads on cuda:0's allocator, each on its own pooled stream (round-robin hands out
/// different ones), so they share the device's mutex.
void pair_empty_2_threads_same_device(benchmark::State& state) {
  cuda::StreamGuard guard{cuda::Stream(0)};
  time_empty_pairs(state, 0);
}

void pair_empty_2_threads_own_device(benchmark::State& state) {
  const int device = state.thread_index();
  cuda::StreamGuard guard{cuda::Stream(device)};
  time_empty_pairs(state, device);
}

// ---- Replay of a synthetic training trace (Note [Synthetic training trace])

using bench::training_trace;

const memory::Snapshot& cached_training_trace() {
  static const memory::Snapshot snapshot = training_trace();
  return snapshot;
}

void replay_training_trace(benchmark::State& state, const std::string& spec) {
  const memory::Snapshot& trace = cached_training_trace();
  const AllocatorConfig config = AllocatorConfig::parse(spec);
  memory::DeviceReplay r;
  for (auto _ : state) {
    memory::ReplayResult result =
        memory::replay_snapshot(trace, config, "synthetic training trace");
    r = result.devices.at(0);
  }
  constexpr double kMiB = 1024.0 * 1024.0;
  state.counters["reserved/allocated"] =
      static_cast<double>(r.peak_reserved) / static_cast<double>(r.peak_allocated);
  state.counters["peak_allocated_MiB"] = static_cast<double>(r.peak_allocated) / kMiB;
  state.counters["peak_reserved_MiB"] = static_cast<double>(r.peak_reserved) / kMiB;
  state.counters["events"] = static_cast<double>(r.allocations + r.frees);
  state.counters["ns_per_event"] = benchmark::Counter(
      static_cast<double>(r.allocations + r.frees) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void register_cases() {
  benchmark::RegisterBenchmark("pair_allocator_1_thread", pair_allocator_1_thread);
  benchmark::RegisterBenchmark("pair_allocator_2_threads_same_device",
                               pair_allocator_2_threads_same_device)
      ->Threads(2)
      ->UseRealTime();
  benchmark::RegisterBenchmark("pair_allocator_2_threads_own_device",
                               pair_allocator_2_threads_own_device)
      ->Threads(2)
      ->UseRealTime();
  benchmark::RegisterBenchmark("pair_empty_1_thread", pair_empty_1_thread);
  benchmark::RegisterBenchmark("pair_empty_2_threads_same_device", pair_empty_2_threads_same_device)
      ->Threads(2)
      ->UseRealTime();
  benchmark::RegisterBenchmark("pair_empty_2_threads_own_device", pair_empty_2_threads_own_device)
      ->Threads(2)
      ->UseRealTime();
  for (const char* spec : {"", "max_split_size_mb:64", "roundup_power2_divisions:4"}) {
    std::string name = std::string("replay_training_trace/") + (*spec ? spec : "default");
    benchmark::RegisterBenchmark(name.c_str(), replay_training_trace, std::string(spec))
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return tide::bench::run_benchmarks(argc, argv, register_cases, /*sim_devices=*/2);
}
