// tide and libtorch side by side, in one process: every case is registered once per library
// ("<case>/tide", "<case>/libtorch") so that a run with --benchmark_repetitions and
// --benchmark_enable_random_interleaving measures both under the same machine state, and
// scripts/bench-vs-libtorch compares the medians.
//
// Note [Benchmark threads]: both libraries parallelize with the same libgomp, and both call the
// same OpenBLAS (tide links it directly, libtorch through libblas.so.3), so one thread count
// is set for all of them before anything runs: TIDE_BENCH_THREADS, default 2. The counts each
// library then reports, the BLAS that the process mapped, and the libtorch version go into the
// benchmark context, where the script reads them.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tide_cases.h"
#include "conv_cases.h"
#include "data_loader_cases.h"
#include "train_loop_cases.h"
#include "training_cases.h"

namespace {

using tide::bench::count_elementwise;
using tide::bench::count_matmul;
using tide::bench::count_reduction;
using tide::bench::kBigNumel;
using tide::bench::kMatmulSize;
using tide::bench::PageFaultCounter;

at::Tensor torch_input(const std::vector<int64_t>& sizes, int seed) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] = tide::bench::input_value(i, seed);
  return t;
}

void torch_add_1(benchmark::State& state) {
  at::Tensor a = torch_input({1}, 1), b = torch_input({1}, 2);
  for (auto _ : state) {
    at::Tensor c = at::add(a, b);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}

// Not one of the targets: libtorch with autograd dispatch switched off, to show how much
// of its per-op time is the autograd layer.
void torch_add_1_inference_mode(benchmark::State& state) {
  c10::InferenceMode guard;
  at::Tensor a = torch_input({1}, 1), b = torch_input({1}, 2);
  for (auto _ : state) {
    at::Tensor c = at::add(a, b);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}

void torch_add_16m(benchmark::State& state) {
  at::Tensor a = torch_input({kBigNumel}, 1), b = torch_input({kBigNumel}, 2);
  PageFaultCounter faults;
  for (auto _ : state) {
    at::Tensor c = at::add(a, b);
    benchmark::DoNotOptimize(c);
  }
  faults.report(state);
  count_elementwise(state, kBigNumel);
}

void torch_add_out_16m(benchmark::State& state) {
  at::Tensor a = torch_input({kBigNumel}, 1), b = torch_input({kBigNumel}, 2);
  at::Tensor out = at::empty({kBigNumel}, at::kFloat);
  for (auto _ : state) {
    at::add_out(out, a, b);
    benchmark::ClobberMemory();
  }
  count_elementwise(state, kBigNumel);
}

void torch_sum_16m(benchmark::State& state) {
  at::Tensor a = torch_input({kBigNumel}, 1);
  for (auto _ : state) {
    at::Tensor s = at::sum(a);
    benchmark::DoNotOptimize(s);
  }
  count_reduction(state, kBigNumel);
}

void torch_matmul_1024(benchmark::State& state) {
  at::Tensor a = torch_input({kMatmulSize, kMatmulSize}, 1);
  at::Tensor b = torch_input({kMatmulSize, kMatmulSize}, 2);
  for (auto _ : state) {
    at::Tensor c = at::matmul(a, b);
    benchmark::DoNotOptimize(c);
  }
  count_matmul(state, kMatmulSize);
}

void register_pair(const std::string& name, void (*tide_case)(benchmark::State&),
                   void (*torch_case)(benchmark::State&), benchmark::TimeUnit unit) {
  benchmark::RegisterBenchmark((name + "/tide").c_str(), tide_case)->UseRealTime()->Unit(unit);
  benchmark::RegisterBenchmark((name + "/libtorch").c_str(), torch_case)->UseRealTime()->Unit(unit);
}

template <class F>
F* find_symbol(const char* name) {
  return reinterpret_cast<F*>(dlsym(RTLD_DEFAULT, name));
}

/// The shared objects this process has mapped whose path names a BLAS, LAPACK, oneDNN or
/// OpenMP runtime: after a libtorch matmul, the BLAS it really called is among them.
std::string mapped_math_libraries() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> found;
  for (std::string line; std::getline(maps, line);) {
    auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string path = line.substr(slash);
    for (const char* key : {"blas", "lapack", "mkl", "dnnl", "gomp", "iomp"}) {
      if (path.find(key) != std::string::npos) found.insert(path);
    }
  }
  std::string joined;
  for (const auto& path : found) joined += (joined.empty() ? "" : " ") + path;
  return joined;
}

int bench_threads() {
  const char* v = std::getenv("TIDE_BENCH_THREADS");
  int n = v ? std::atoi(v) : 2;
  return n > 0 ? n : 2;
}

void set_threads_and_record_context(int threads) {
  at::set_num_threads(threads);
  if (auto* omp_set = find_symbol<void(int)>("omp_set_num_threads")) omp_set(threads);
  if (auto* blas_set = find_symbol<void(int)>("openblas_set_num_threads")) blas_set(threads);

  // One matmul so libtorch has resolved and called its BLAS before /proc/self/maps is read.
  at::Tensor warm = at::matmul(torch_input({64, 64}, 1), torch_input({64, 64}, 2));
  benchmark::DoNotOptimize(warm);

  benchmark::AddCustomContext("libtorch_version", TIDE_BENCH_TORCH_VERSION);
  benchmark::AddCustomContext("tide_version", tide::version());
  benchmark::AddCustomContext("threads_requested", std::to_string(threads));
  benchmark::AddCustomContext("threads_libtorch", std::to_string(at::get_num_threads()));
  if (auto* omp_max = find_symbol<int()>("omp_get_max_threads")) {
    benchmark::AddCustomContext("threads_openmp", std::to_string(omp_max()));
  }
  if (auto* blas_threads = find_symbol<int()>("openblas_get_num_threads")) {
    benchmark::AddCustomContext("threads_openblas", std::to_string(blas_threads()));
  }
  if (auto* blas_config = find_symbol<char*()>("openblas_get_config")) {
    benchmark::AddCustomContext("openblas_config", blas_config());
  }
  if (auto* blas_core = find_symbol<char*()>("openblas_get_corename")) {
    benchmark::AddCustomContext("openblas_core", blas_core());
  }
  benchmark::AddCustomContext("mapped_math_libraries", mapped_math_libraries());
}

}  // namespace

int main(int argc, char** argv) {
  set_threads_and_record_context(bench_threads());

  using namespace tide::bench;
  register_pair("add_1", add_1, torch_add_1, benchmark::kNanosecond);
  benchmark::RegisterBenchmark("add_1_inference_mode/libtorch", torch_add_1_inference_mode)
      ->UseRealTime()
      ->Unit(benchmark::kNanosecond);
  register_pair("add_16m", add_16m, torch_add_16m, benchmark::kMillisecond);
  register_pair("add_out_16m", add_out_16m, torch_add_out_16m, benchmark::kMillisecond);
  register_pair("sum_16m", sum_16m, torch_sum_16m, benchmark::kMillisecond);
  register_pair("matmul_1024", matmul_1024, torch_matmul_1024, benchmark::kMillisecond);
  register_training_cases();
  register_data_loader_cases();
  register_train_loop_cases();
  tide::bench::register_conv_cases();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
