// The runtime's per-op costs on simulated GPUs, against the same work on the cpu in the same
// process: what enqueueing an op costs the host thread, an event record + query, and the round
// trip of an empty task through a stream's worker, and the stream sanitizer's cost per op, off
// and on. Runs on 2 simulated GPUs whatever the environment says (set_sim_devices_for_testing
// before anything touches the backend).
//
// Note [Enqueue-only timing]: a simulated stream's worker runs concurrently with the
// benchmark loop, so "enqueue only" cases time the host side alone and drain the stream
// every kDrainEvery iterations with the timer paused (without draining, the queue and every
// tensor it keeps alive would grow without bound). The worker still competes for cores and
// for the stream's lock while the timer runs; that is part of what an enqueue costs.
//
// Note [Allocation counter]: this program replaces the global operator new to count calls
// made by the benchmark thread (a thread_local counter), reported per iteration as
// `heap_allocs`. It sees every `new` of tide and the standard library (std::function's
// heap-stored callables, deque blocks, shared_ptr control blocks, tensor impls) but not raw
// std::malloc, which is how simulated device memory is taken (one per allocating op on a
// simulated GPU, as the cpu allocator's cache is not used there); the callgrind profile in
// RESULTS.md counts both.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "bench_main.h"
#include "runtime/launch.h"
#include "tide/cuda.h"
#include "tide/testing/sim_hooks.h"
#include "tide/tide.h"

// ---- Note [Allocation counter]

namespace {
thread_local int64_t t_heap_allocs = 0;
}  // namespace

void* operator new(std::size_t n) {
  ++t_heap_allocs;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  ++t_heap_allocs;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++t_heap_allocs;
  return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  ++t_heap_allocs;
  return std::malloc(n == 0 ? 1 : n);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace tide;

constexpr int64_t kDrainEvery = 1024;  // Note [Enqueue-only timing]

/// Reports heap allocations per iteration made by this thread inside the timed loop.
class AllocCounter {
 public:
  AllocCounter() : start_(t_heap_allocs) {}
  void report(benchmark::State& state) const {
    state.counters["heap_allocs"] = benchmark::Counter(static_cast<double>(t_heap_allocs - start_),
                                                       benchmark::Counter::kAvgIterations);
  }

 private:
  int64_t start_;
};

/// The 1-element float32 operands of the add cases on `device`.
struct AddOperands {
  explicit AddOperands(Device device)
      : a(tensor({1.f}, tide::device(device))), b(tensor({2.f}, tide::device(device))) {
    if (device.is_cuda()) cuda::synchronize(device.index());
  }
  Tensor a, b;
};

/// Drains `device`'s streams with the timer paused (Note [Enqueue-only timing]).
void drain(benchmark::State& state, int device) {
  state.PauseTiming();
  cuda::synchronize(device);
  state.ResumeTiming();
}

// ---- 1-element add: the op front end, allocation of the result, and the kernel (cpu) or
// its enqueue (simulated GPU).

void add_1_cpu(benchmark::State& state) {
  AddOperands x(kCPU);
  AllocCounter allocs;
  for (auto _ : state) {
    Tensor c = x.a + x.b;
    benchmark::DoNotOptimize(c);
  }
  allocs.report(state);
}

/// Enqueue only; the operands live on cuda:`state.range(0)` while cuda:0 stays current, so
/// cuda:1 shows that running on the operands' device costs nothing extra.
void add_1_sim_enqueue(benchmark::State& state) {
  const int device = static_cast<int>(state.range(0));
  AddOperands x(Device(kCUDA, device));
  AllocCounter allocs;
  int64_t n = 0;
  for (auto _ : state) {
    {
      Tensor c = x.a + x.b;
      benchmark::DoNotOptimize(c);
    }
    if (++n % kDrainEvery == 0) drain(state, device);
  }
  allocs.report(state);
  cuda::synchronize(device);
}

/// Enqueue and wait for the worker to run it: the op's latency end to end.
void add_1_sim_enqueue_synchronize(benchmark::State& state) {
  AddOperands x(Device(kCUDA, 0));
  cuda::Stream stream = cuda::current_stream(0);
  AllocCounter allocs;
  for (auto _ : state) {
    Tensor c = x.a + x.b;
    stream.synchronize();
    benchmark::DoNotOptimize(c);
  }
  allocs.report(state);
}

// ---- the launch path alone, without an op front end: an empty task.

void empty_task_sim_enqueue(benchmark::State& state) {
  cuda::Stream stream = cuda::current_stream(0);
  AllocCounter allocs;
  int64_t n = 0;
  for (auto _ : state) {
    runtime::launch(stream, "empty", [] {});
    if (++n % kDrainEvery == 0) drain(state, 0);
  }
  allocs.report(state);
  stream.synchronize();
}

/// Stream synchronize round trip: enqueue an empty task and wait until the worker ran it.
void stream_synchronize_round_trip(benchmark::State& state) {
  cuda::Stream stream = cuda::current_stream(0);
  AllocCounter allocs;
  for (auto _ : state) {
    runtime::launch(stream, "empty", [] {});
    stream.synchronize();
  }
  allocs.report(state);
}

/// Synchronizing a stream with nothing pending: the floor under the round trip.
void stream_synchronize_idle(benchmark::State& state) {
  cuda::Stream stream = cuda::current_stream(0);
  stream.synchronize();
  AllocCounter allocs;
  for (auto _ : state) stream.synchronize();
  allocs.report(state);
}

// ---- events

/// Record a (non-timing) event on an idle stream and query it: both are host-side only.
void event_record_query(benchmark::State& state) {
  cuda::Stream stream = cuda::current_stream(0);
  cuda::Event event;
  event.record(stream);  // creates the backend event outside the loop
  stream.synchronize();
  AllocCounter allocs;
  for (auto _ : state) {
    event.record(stream);
    benchmark::DoNotOptimize(event.query());
  }
  allocs.report(state);
}

/// The same behind pending work: query answers false until the worker catches up.
void event_record_query_after_enqueue(benchmark::State& state) {
  cuda::Stream stream = cuda::current_stream(0);
  cuda::Event event;
  event.record(stream);
  AllocCounter allocs;
  int64_t n = 0;
  for (auto _ : state) {
    runtime::launch(stream, "empty", [] {});
    event.record(stream);
    benchmark::DoNotOptimize(event.query());
    if (++n % kDrainEvery == 0) drain(state, 0);
  }
  allocs.report(state);
  stream.synchronize();
}

/// A timing event: record enqueues a marker task that stamps the clock.
void timing_event_record_query(benchmark::State& state) {
  cuda::Stream stream = cuda::current_stream(0);
  cuda::Event event(/*enable_timing=*/true);
  event.record(stream);
  AllocCounter allocs;
  int64_t n = 0;
  for (auto _ : state) {
    event.record(stream);
    benchmark::DoNotOptimize(event.query());
    if (++n % kDrainEvery == 0) drain(state, 0);
  }
  allocs.report(state);
  stream.synchronize();
}

// ---- the stream sanitizer (Note [Stream sanitizer] in src/runtime/sanitizer.h): the
// enqueue of a 1-element add on cuda:0 with the sanitizer off (its one branch) and on
// (declaring, checking and recording the add's three tensors, with an enqueue backtrace).

void add_1_sim_enqueue_sanitizer(benchmark::State& state) {
  const bool on = state.range(0) != 0;
  const bool was_on = cuda::sanitizer_enabled();
  if (on) cuda::enable_sanitizer();
  if (!on) cuda::disable_sanitizer();
  AddOperands x(Device(kCUDA, 0));
  AllocCounter allocs;
  int64_t n = 0;
  for (auto _ : state) {
    {
      Tensor c = x.a + x.b;
      benchmark::DoNotOptimize(c);
    }
    if (++n % kDrainEvery == 0) drain(state, 0);
  }
  allocs.report(state);
  cuda::synchronize(0);
  if (was_on) {
    cuda::enable_sanitizer();
  } else {
    cuda::disable_sanitizer();
  }
}

void register_cases() {
  auto ns = [](benchmark::internal::Benchmark* b) {
    b->UseRealTime()->Unit(benchmark::kNanosecond);
  };
  ns(benchmark::RegisterBenchmark("add_1/cpu", add_1_cpu));
  ns(benchmark::RegisterBenchmark("add_1/sim_enqueue", add_1_sim_enqueue)->Arg(0)->Arg(1));
  ns(benchmark::RegisterBenchmark("add_1/sim_enqueue_synchronize", add_1_sim_enqueue_synchronize));
  ns(benchmark::RegisterBenchmark("empty_task/sim_enqueue", empty_task_sim_enqueue));
  ns(benchmark::RegisterBenchmark("stream_synchronize/round_trip", stream_synchronize_round_trip));
  ns(benchmark::RegisterBenchmark("stream_synchronize/idle", stream_synchronize_idle));
  ns(benchmark::RegisterBenchmark("event/record_query", event_record_query));
  ns(benchmark::RegisterBenchmark("event/record_query_after_enqueue",
                                  event_record_query_after_enqueue));
  ns(benchmark::RegisterBenchmark("event/timing_record_query", timing_event_record_query));
  ns(benchmark::RegisterBenchmark("sanitizer/add_1_sim_enqueue", add_1_sim_enqueue_sanitizer)
         ->ArgName("on")->Arg(0)->Arg(1));
}

}  // namespace

int main(int argc, char** argv) {
  return tide::bench::run_benchmarks(argc, argv, register_cases, /*sim_devices=*/2);
}
