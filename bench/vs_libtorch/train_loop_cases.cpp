// Note [Train loop benchmark]: what `tide train` does per epoch on cpu, and the same program
// in libtorch's C++ frontend: a shuffled DataLoader over an in-memory (input, target) dataset
// at batch 64 with 2 worker threads (train_epoch_64, as `tide train`; train_epoch_64_w0:
// none), an MLP 784-256-10 (ReLU), cross entropy and SGD with momentum 0.9. One iteration is
// one epoch of kSamples samples; items are samples, so the report reads samples per second,
// data pipeline included. libtorch's side uses its own DataLoader (RandomSampler, Stack
// transform), as a libtorch user would.

#include "train_loop_cases.h"

#include <torch/torch.h>
#include <benchmark/benchmark.h>

#include <tide/tide.h>

#include <string>
#include <vector>

#include "tide_cases.h"

namespace tide::bench {
namespace {

constexpr int64_t kSamples = 6400, kBatch = 64, kIn = 784, kHidden = 256, kClasses = 10;

std::vector<float> pixels() {
  std::vector<float> v(static_cast<size_t>(kSamples * kIn));
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.5f + 0.5f * input_value(static_cast<int64_t>(i), 11);
  return v;
}
std::vector<int64_t> labels() {
  std::vector<int64_t> v(static_cast<size_t>(kSamples));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 7) % kClasses);
  return v;
}

template <int Workers>
void tide_train_epoch(benchmark::State& state) {
  tide::manual_seed(0);
  std::vector<float> xs = pixels();
  std::vector<int64_t> ys = labels();
  auto dataset = std::make_shared<data::TensorDataset>(
      from_blob(xs.data(), {kSamples, kIn}, dtype(kFloat32)).clone(),
      from_blob(ys.data(), {kSamples}, dtype(kInt64)).clone());
  data::DataLoader loader(dataset, data::DataLoaderOptions()
                                       .batch_size(kBatch)
                                       .shuffle(true)
                                       .seed(0)
                                       .num_workers(Workers));
  nn::Sequential net(nn::Linear(kIn, kHidden), nn::ReLU(), nn::Linear(kHidden, kClasses));
  optim::SGD opt(net.parameters(), optim::SGDOptions(0.05).momentum(0.9));
  for (auto _ : state) {
    for (const data::Example& batch : loader) {
      opt.zero_grad();
      Tensor loss = cross_entropy(net(batch.data), batch.target);
      loss.backward();
      opt.step();
      benchmark::DoNotOptimize(loss);
    }
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

/// libtorch's datasets return one Example per index; Stack<> makes the batch.
class PairDataset : public torch::data::datasets::Dataset<PairDataset> {
 public:
  PairDataset(at::Tensor x, at::Tensor y) : x_(std::move(x)), y_(std::move(y)) {}
  torch::data::Example<> get(size_t index) override {
    return {x_[static_cast<int64_t>(index)], y_[static_cast<int64_t>(index)]};
  }
  torch::optional<size_t> size() const override { return static_cast<size_t>(x_.size(0)); }

 private:
  at::Tensor x_, y_;
};

template <int Workers>
void torch_train_epoch(benchmark::State& state) {
  torch::manual_seed(0);
  std::vector<float> xs = pixels();
  std::vector<int64_t> ys = labels();
  PairDataset dataset(torch::from_blob(xs.data(), {kSamples, kIn}, torch::kFloat).clone(),
                      torch::from_blob(ys.data(), {kSamples}, torch::kLong).clone());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      dataset.map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(kBatch).workers(Workers));
  torch::nn::Sequential net(torch::nn::Linear(kIn, kHidden), torch::nn::ReLU(),
                            torch::nn::Linear(kHidden, kClasses));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  for (auto _ : state) {
    for (auto& batch : *loader) {
      opt.zero_grad();
      at::Tensor loss = torch::nn::functional::cross_entropy(net->forward(batch.data), batch.target);
      loss.backward();
      opt.step();
      benchmark::DoNotOptimize(loss);
    }
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

}  // namespace

void register_train_loop_cases() {
  benchmark::RegisterBenchmark("train_epoch_64/tide", tide_train_epoch<2>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("train_epoch_64/libtorch", torch_train_epoch<2>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  // Without workers: the same loop with batches built on the training thread, which keeps
  // libtorch's OpenMP team from competing with its loader threads for two cores.
  benchmark::RegisterBenchmark("train_epoch_64_w0/tide", tide_train_epoch<0>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("train_epoch_64_w0/libtorch", torch_train_epoch<0>)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace tide::bench
