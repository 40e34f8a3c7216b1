// tide::distributed::all_reduce against raw MPI_Allreduce on the same buffers, one run under
// `mpirun -np 2` (scripts/bench-distributed). Note [Distributed benchmark]: both sides reduce
// float32 cpu buffers in place with SUM, sizes 4 KiB to 64 MiB; every rank runs the same fixed
// iteration counts (a collective needs every rank, so Google Benchmark's adaptive counts that
// may differ between ranks cannot be used). Bus bandwidth is NCCL-tests' figure for
// all-reduce: bytes * 2 (n - 1) / n per second. Rank 0 reports; the others print nothing.

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tide/tide.h"

namespace {

namespace dist = tide::distributed;

double bus_bytes(int64_t bytes) {
  const int n = dist::get_world_size();
  return static_cast<double>(bytes) * 2.0 * (n - 1) / n;
}

void BM_tide_all_reduce(benchmark::State& state) {
  const int64_t bytes = state.range(0);
  tide::Tensor t = tide::ones({bytes / 4});
  for (auto _ : state) dist::all_reduce(t);
  state.counters["busbw"] = benchmark::Counter(bus_bytes(bytes) * state.iterations(),
                                               benchmark::Counter::kIsRate);
}

void BM_mpi_allreduce(benchmark::State& state) {
  const int64_t bytes = state.range(0);
  std::vector<float> buffer(bytes / 4, 1.0f);
  for (auto _ : state) {
    MPI_Allreduce(MPI_IN_PLACE, buffer.data(), static_cast<int>(buffer.size()), MPI_FLOAT,
                  MPI_SUM, MPI_COMM_WORLD);
  }
  state.counters["busbw"] = benchmark::Counter(bus_bytes(bytes) * state.iterations(),
                                               benchmark::Counter::kIsRate);
}

/// TIDE_BENCH_ROUNDS rounds (default 1) of every size, each round mpi then tide: repeated
/// runs interleave the two sides in time the same way on every rank (Google Benchmark's
/// random interleaving would order the cases differently on each rank).
void register_cases() {
  const char* rounds_text = std::getenv("TIDE_BENCH_ROUNDS");
  const int rounds = rounds_text ? std::max(1, std::atoi(rounds_text)) : 1;
  for (int round = 0; round < rounds; ++round) {
  for (int64_t bytes = 4 << 10; bytes <= (64 << 20); bytes *= 4) {
    const int64_t iterations = std::clamp<int64_t>((256LL << 20) / bytes, 10, 2000);
    benchmark::RegisterBenchmark("mpi_allreduce", BM_mpi_allreduce)
        ->Arg(bytes)->Iterations(iterations)->UseRealTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("tide_all_reduce", BM_tide_all_reduce)
        ->Arg(bytes)->Iterations(iterations)->UseRealTime()->Unit(benchmark::kMicrosecond);
  }
  }
}

}  // namespace

int main(int argc, char** argv) {
  dist::init_process_group("mpi");
  if (dist::get_rank() != 0) std::freopen("/dev/null", "w", stdout);
  register_cases();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  dist::destroy_process_group();
  return 0;
}
