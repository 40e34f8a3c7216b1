// A DistributedDataParallel training step on 2 ranks against one process running both halves
// of the batch (scripts/bench-distributed runs both). Note [DDP benchmark]:
// - under mpirun (OMPI_COMM_WORLD_SIZE set), every rank runs, with the same fixed iterations:
//   ddp_step        zero_grad, forward, backward (buckets all-reduced as they fill), SGD step;
//   local_step      the same step without DDP: the compute alone, with both ranks on the cores;
//   grad_all_reduce the gradients' all-reduces alone, bucket by bucket, nothing to hide behind.
//   The share of all-reduce time hidden behind backward is
//   1 - (ddp_step - local_step) / grad_all_reduce.
// - without mpirun: single_both_halves, one process running the two ranks' half batches one
//   after the other (forward + backward each, one SGD step), with the machine's threads.
// The model is an MLP 784-1024-1024-10 (1.86 M parameters, 7.1 MiB of float32 gradients),
// 64 samples per rank, buckets of 1 MiB so that several can go out during backward.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tide/nn/distributed_data_parallel.h"
#include "tide/tide.h"

namespace {

namespace dist = tide::distributed;
constexpr int64_t kBatchPerRank = 64;
constexpr size_t kBucketMb = 1;
constexpr int64_t kIterations = 30;

std::shared_ptr<tide::nn::Sequential> make_model() {
  tide::manual_seed(0);
  return std::make_shared<tide::nn::Sequential>(tide::nn::Linear(784, 1024), tide::nn::ReLU(),
                                                tide::nn::Linear(1024, 1024), tide::nn::ReLU(),
                                                tide::nn::Linear(1024, 10));
}

struct Batch {
  tide::Tensor x, y;
};
Batch make_batch(int64_t n) {
  return {tide::randn({n, 784}), tide::randint(0, 10, {n})};
}

void step(tide::nn::Module& net, tide::optim::SGD& opt, const Batch& b) {
  opt.zero_grad();
  tide::cross_entropy(net(b.x), b.y).backward();
  opt.step();
}

void BM_ddp_step(benchmark::State& state) {
  auto model = make_model();
  tide::nn::DistributedDataParallel ddp(*model, tide::nn::DDPOptions().bucket_cap_mb(kBucketMb));
  tide::optim::SGD opt(model->parameters(), tide::optim::SGDOptions(0.01).momentum(0.9));
  Batch b = make_batch(kBatchPerRank);
  for (auto _ : state) step(ddp, opt, b);
  state.counters["buckets"] = static_cast<double>(ddp.bucket_count());
}

void BM_local_step(benchmark::State& state) {
  auto model = make_model();
  tide::optim::SGD opt(model->parameters(), tide::optim::SGDOptions(0.01).momentum(0.9));
  Batch b = make_batch(kBatchPerRank);
  for (auto _ : state) step(*model, opt, b);
}

void BM_grad_all_reduce(benchmark::State& state) {
  int64_t numel = 0;
  for (const tide::Tensor& p : make_model()->parameters()) numel += p.numel();
  // The buckets' sizes: 1 MiB each (the last one smaller).
  const int64_t per_bucket = static_cast<int64_t>(kBucketMb << 20) / 4;
  std::vector<tide::Tensor> buckets;
  for (int64_t done = 0; done < numel; done += per_bucket) {
    buckets.push_back(tide::ones({std::min(per_bucket, numel - done)}));
  }
  for (auto _ : state) {
    std::vector<std::shared_ptr<dist::Work>> works;
    for (tide::Tensor& bucket : buckets) works.push_back(dist::all_reduce(bucket, dist::ReduceOp::AVG, true));
    for (auto& w : works) w->wait();
  }
}

void BM_single_both_halves(benchmark::State& state) {
  auto model = make_model();
  tide::optim::SGD opt(model->parameters(), tide::optim::SGDOptions(0.01).momentum(0.9));
  Batch halves[2] = {make_batch(kBatchPerRank), make_batch(kBatchPerRank)};
  for (auto _ : state) {
    opt.zero_grad();
    for (const Batch& b : halves) (tide::cross_entropy(model->forward(b.x), b.y) * 0.5).backward();
    opt.step();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool distributed = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr;
  if (distributed) {
    dist::init_process_group("mpi");
    if (dist::get_rank() != 0) std::freopen("/dev/null", "w", stdout);
    for (auto [name, fn] : {std::pair{"ddp_step", &BM_ddp_step},
                            std::pair{"local_step", &BM_local_step},
                            std::pair{"grad_all_reduce", &BM_grad_all_reduce}}) {
      benchmark::RegisterBenchmark(name, fn)->Iterations(kIterations)->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  } else {
    benchmark::RegisterBenchmark("single_both_halves", BM_single_both_halves)
        ->Iterations(kIterations)->UseRealTime()->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (distributed) dist::destroy_process_group();
  return 0;
}
