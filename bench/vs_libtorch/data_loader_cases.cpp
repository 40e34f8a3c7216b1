// Note [DataLoader benchmarks]: the same dataset on both sides, 60000 samples of 784 float32
// (an MNIST-sized training set in memory) and int64 labels, read in shuffled batches of 64,
// with 0 and 2 worker threads (2 batches in flight per worker on both sides: tide's
// prefetch_factor 2, libtorch's default max_jobs = 2 * workers). libtorch's side is what its
// frontend offers for this: a map-style dataset whose get(i) returns row i of each tensor,
// mapped through transforms::Stack, with make_data_loader's RandomSampler. tide's is
// TensorDataset and DataLoader with shuffle. One benchmark iteration is one batch; an epoch
// that runs out is started again inside the timed loop (938 batches each), so worker start-up
// and shuffling are counted as a training loop pays them. Items are batches: the report reads
// batches per second.

#include "data_loader_cases.h"

#include <torch/torch.h>
#include <benchmark/benchmark.h>

#include <tide/tide.h>

#include "tide_cases.h"

namespace tide::bench {
namespace {

constexpr int64_t kSamples = 60000, kFeatures = 784, kBatch = 64, kClasses = 10;

/// libtorch's counterpart of tide::data::TensorDataset: sample i is (data[i], target[i]).
class TorchTensorPairs : public torch::data::datasets::Dataset<TorchTensorPairs> {
 public:
  TorchTensorPairs(at::Tensor data, at::Tensor target)
      : data_(std::move(data)), target_(std::move(target)) {}
  torch::data::Example<> get(size_t index) override {
    const auto i = static_cast<int64_t>(index);
    return {data_[i], target_[i]};
  }
  torch::optional<size_t> size() const override { return static_cast<size_t>(data_.size(0)); }

 private:
  at::Tensor data_, target_;
};

std::vector<float> feature_values() {
  std::vector<float> v(static_cast<size_t>(kSamples * kFeatures));
  for (size_t i = 0; i < v.size(); ++i) v[i] = input_value(static_cast<int64_t>(i), 3);
  return v;
}

std::vector<int64_t> label_values() {
  std::vector<int64_t> v(static_cast<size_t>(kSamples));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 7) % kClasses);
  return v;
}

template <int Workers>
void tide_data_loader(benchmark::State& state) {
  std::vector<float> xs = feature_values();
  std::vector<int64_t> ys = label_values();
  auto dataset = std::make_shared<data::TensorDataset>(
      from_blob(xs.data(), {kSamples, kFeatures}, dtype(kFloat32)).clone(),
      from_blob(ys.data(), {kSamples}, dtype(kInt64)).clone());
  data::DataLoader loader(dataset, data::DataLoaderOptions().batch_size(kBatch).shuffle(true)
                                       .seed(0).num_workers(Workers));
  auto it = loader.begin();
  for (auto _ : state) {
    if (it == loader.end()) it = loader.begin();
    const data::Example& batch = *it;
    benchmark::DoNotOptimize(batch.data.raw_data());
    ++it;
  }
  state.SetItemsProcessed(state.iterations());
}

template <int Workers>
void torch_data_loader(benchmark::State& state) {
  std::vector<float> xs = feature_values();
  std::vector<int64_t> ys = label_values();
  auto dataset = TorchTensorPairs(torch::from_blob(xs.data(), {kSamples, kFeatures}, torch::kFloat).clone(),
                                  torch::from_blob(ys.data(), {kSamples}, torch::kLong).clone())
                     .map(torch::data::transforms::Stack<>());
  torch::manual_seed(0);
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions(kBatch).workers(Workers));
  auto it = loader->begin();
  for (auto _ : state) {
    if (it == loader->end()) it = loader->begin();
    const auto& batch = *it;
    benchmark::DoNotOptimize(batch.data.data_ptr());
    ++it;
  }
  state.SetItemsProcessed(state.iterations());
}

void register_pair(const char* name, void (*tide_case)(benchmark::State&),
                   void (*torch_case)(benchmark::State&)) {
  const std::string base = name;
  benchmark::RegisterBenchmark((base + "/tide").c_str(), tide_case)->UseRealTime()->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((base + "/libtorch").c_str(), torch_case)->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_data_loader_cases() {
  register_pair("data_loader_w0", tide_data_loader<0>, torch_data_loader<0>);
  register_pair("data_loader_w2", tide_data_loader<2>, torch_data_loader<2>);
}

}  // namespace tide::bench
