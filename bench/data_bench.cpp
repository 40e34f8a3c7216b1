// tide::data on simulated GPUs (2 of them, whatever the environment says): what pinned batches
// buy a host-to-device copy, and how much of the copy time DevicePrefetcher hides behind
// compute. A simulated stream is a worker thread, so "device" copies and kernels run on host
// cores concurrently with the benchmark thread and the loader's workers.
//
// Note [Data benchmarks]:
// - batch_copy/{pageable,pinned}/B: one (B, 784) float32 batch and its int64 labels copied to
//   cuda:0 with non_blocking=true, then the stream synchronized. From pageable memory the copy
//   first stages the source (a host copy, Note [Copies between devices]); from pinned memory
//   the device copy reads it directly.
// - loader_to_device/{pageable,pinned}/B: the same through a DataLoader (shuffled, 2 workers,
//   pin_memory off or on): each batch is gathered by the workers and copied.
// - prefetch_overlap/batch:B/workers:W: per iteration, one epoch of 32 batches from a pinned
//   DataLoader with W workers, in four ways, each timed on the wall clock and ending with a
//   synchronize: copy only (loader batch, non_blocking copy),
//   compute only (the same kernels on one resident batch), serial (copy then compute on the
//   caller's stream), and prefetched (DevicePrefetcher, compute on the caller's stream).
//   hidden_fraction = (serial - prefetched) / copy: the share of the copy time that the
//   prefetcher took off the critical path (1: all of it). The reported time is the prefetched
//   epoch's. On simulated GPUs the copy and the kernels are host threads, so hiding the copy
//   needs a core that neither the caller's stream nor the loader keeps busy: on a 2-core
//   machine expect little (bench/RESULTS.md).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "bench_main.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

namespace {

using namespace tide;
using Clock = std::chrono::steady_clock;

constexpr int64_t kFeatures = 784;
constexpr int64_t kEpochBatches = 32;

Tensor features(int64_t rows) {
  Tensor t = empty({rows, kFeatures});
  float* p = t.data_ptr<float>();
  for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = static_cast<float>((i * 7) % 17 - 8) / 8.0f;
  return t;
}

Tensor labels(int64_t rows) {
  Tensor t = empty({rows}, dtype(kInt64));
  int64_t* p = t.data_ptr<int64_t>();
  for (int64_t i = 0; i < rows; ++i) p[i] = (i * 7) % 10;
  return t;
}

std::shared_ptr<data::TensorDataset> dataset(int64_t rows) {
  return std::make_shared<data::TensorDataset>(features(rows), labels(rows));
}

void count_batch_bytes(benchmark::State& state, int64_t batch) {
  state.SetBytesProcessed(state.iterations() * batch * (kFeatures * 4 + 8));
  state.SetItemsProcessed(state.iterations());
}

void batch_copy(benchmark::State& state, bool pinned) {
  const int64_t batch = state.range(0);
  Tensor x = features(batch), y = labels(batch);
  if (pinned) {
    x = x.pin_memory();
    y = y.pin_memory();
  }
  const Device dev("cuda:0");
  for (auto _ : state) {
    Tensor dx = x.to(dev, /*non_blocking=*/true);
    Tensor dy = y.to(dev, /*non_blocking=*/true);
    cuda::current_stream(0).synchronize();
    benchmark::DoNotOptimize(dx.raw_data());
  }
  count_batch_bytes(state, batch);
}

void loader_to_device(benchmark::State& state, bool pinned) {
  const int64_t batch = state.range(0);
  data::DataLoader loader(dataset(batch * kEpochBatches), data::DataLoaderOptions()
                              .batch_size(batch).shuffle(true).seed(0).num_workers(2).pin_memory(pinned));
  const Device dev("cuda:0");
  auto it = loader.begin();
  for (auto _ : state) {
    if (it == loader.end()) it = loader.begin();
    Tensor dx = it->data.to(dev, /*non_blocking=*/true);
    Tensor dy = it->target.to(dev, /*non_blocking=*/true);
    cuda::current_stream(0).synchronize();
    benchmark::DoNotOptimize(dx.raw_data());
    ++it;
  }
  count_batch_bytes(state, batch);
}

/// The caller's work on a batch: a few memory-bound kernels, about as long as its copy.
Tensor compute(const Tensor& x) { return (x * 2.0 + 1.0).relu().sum(1); }

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void prefetch_overlap(benchmark::State& state) {
  const int64_t batch = state.range(0);
  const int workers = static_cast<int>(state.range(1));
  data::DataLoader loader(dataset(batch * kEpochBatches), data::DataLoaderOptions()
                              .batch_size(batch).shuffle(true).seed(0).num_workers(workers).pin_memory(true));
  const Device dev("cuda:0");
  data::DevicePrefetcher prefetcher(loader, dev);
  const Tensor resident = features(batch).to(dev);
  cuda::synchronize(0);
  double copy = 0, compute_only = 0, serial = 0, prefetched = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    for (const data::Example& b : loader) {
      Tensor dx = b.data.to(dev, true), dy = b.target.to(dev, true);
    }
    cuda::synchronize(0);
    copy += seconds_since(start);

    start = Clock::now();
    for (int64_t i = 0; i < kEpochBatches; ++i) benchmark::DoNotOptimize(compute(resident).raw_data());
    cuda::synchronize(0);
    compute_only += seconds_since(start);

    start = Clock::now();
    for (const data::Example& b : loader) {
      Tensor dx = b.data.to(dev, true), dy = b.target.to(dev, true);
      benchmark::DoNotOptimize(compute(dx).raw_data());
    }
    cuda::synchronize(0);
    serial += seconds_since(start);

    start = Clock::now();
    for (const data::Example& b : prefetcher) benchmark::DoNotOptimize(compute(b.data).raw_data());
    cuda::synchronize(0);
    const double t = seconds_since(start);
    prefetched += t;
    state.SetIterationTime(t);
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["copy_ms"] = copy / n * 1e3;
  state.counters["compute_ms"] = compute_only / n * 1e3;
  state.counters["serial_ms"] = serial / n * 1e3;
  state.counters["prefetched_ms"] = prefetched / n * 1e3;
  state.counters["hidden_fraction"] = std::clamp((serial - prefetched) / copy, 0.0, 1.0);
  state.SetItemsProcessed(state.iterations() * kEpochBatches);
}

void register_cases() {
  for (bool pinned : {false, true}) {
    const std::string kind = pinned ? "pinned" : "pageable";
    benchmark::RegisterBenchmark(("batch_copy/" + kind).c_str(), batch_copy, pinned)
        ->Arg(64)->Arg(1024)->UseRealTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("loader_to_device/" + kind).c_str(), loader_to_device, pinned)
        ->Arg(64)->Arg(1024)->UseRealTime()->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("prefetch_overlap", prefetch_overlap)
      ->ArgNames({"batch", "workers"})->Args({256, 0})->Args({256, 2})->Args({1024, 0})->Args({1024, 2})
      ->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  return tide::bench::run_benchmarks(argc, argv, register_cases, /*sim_devices=*/2);
}
