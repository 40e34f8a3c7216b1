// Note [Training benchmarks]: the same work on both sides, in one process.
// - mlp_step_B: one training step of an MLP 784-256-256-10 with ReLU, cross entropy and SGD
//   with momentum 0.9 (zero_grad, forward, loss, backward, step) at batch B; items are
//   samples, so the report reads samples per second. Inputs and targets are fixed tensors
//   made once: the data pipeline is not part of the step.
// - autograd_chain_100: backward through a graph of 100 tiny ops (mul, add, relu in turn on
//   a 16-element tensor), recorded once and walked again each iteration (retain_graph): the
//   engine's per-node cost, which is autograd's overhead.

#include "training_cases.h"

#include <torch/torch.h>
#include <benchmark/benchmark.h>

#include <tide/tide.h>

#include "tide_cases.h"

namespace tide::bench {
namespace {

constexpr int64_t kIn = 784, kHidden = 256, kClasses = 10;
constexpr int kChainOps = 100;
constexpr int64_t kChainNumel = 16;

/// Fixed inputs in [-1, 1) and targets 0..9, the same values on both sides.
std::vector<float> input_values(int64_t batch) {
  std::vector<float> v(static_cast<size_t>(batch * kIn));
  for (size_t i = 0; i < v.size(); ++i) v[i] = input_value(static_cast<int64_t>(i), 7);
  return v;
}
std::vector<int64_t> target_values(int64_t batch) {
  std::vector<int64_t> v(static_cast<size_t>(batch));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 7) % kClasses);
  return v;
}

template <int64_t Batch>
void tide_mlp_step(benchmark::State& state) {
  tide::manual_seed(0);
  nn::Sequential net(nn::Linear(kIn, kHidden), nn::ReLU(), nn::Linear(kHidden, kHidden),
                     nn::ReLU(), nn::Linear(kHidden, kClasses));
  optim::SGD opt(net.parameters(), optim::SGDOptions(0.01).momentum(0.9));
  std::vector<float> xs = input_values(Batch);
  std::vector<int64_t> ys = target_values(Batch);
  const Tensor x = from_blob(xs.data(), {Batch, kIn}, dtype(kFloat32)).clone();
  const Tensor y = from_blob(ys.data(), {Batch}, dtype(kInt64)).clone();
  for (auto _ : state) {
    opt.zero_grad();
    Tensor loss = cross_entropy(net(x), y);
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss);
  }
  state.SetItemsProcessed(state.iterations() * Batch);
}

template <int64_t Batch>
void torch_mlp_step(benchmark::State& state) {
  torch::manual_seed(0);
  torch::nn::Sequential net(torch::nn::Linear(kIn, kHidden), torch::nn::ReLU(),
                            torch::nn::Linear(kHidden, kHidden), torch::nn::ReLU(),
                            torch::nn::Linear(kHidden, kClasses));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  std::vector<float> xs = input_values(Batch);
  std::vector<int64_t> ys = target_values(Batch);
  const at::Tensor x = torch::from_blob(xs.data(), {Batch, kIn}, torch::kFloat).clone();
  const at::Tensor y = torch::from_blob(ys.data(), {Batch}, torch::kLong).clone();
  for (auto _ : state) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss);
  }
  state.SetItemsProcessed(state.iterations() * Batch);
}

void tide_autograd_chain(benchmark::State& state) {
  Tensor x = ones({kChainNumel}).requires_grad_();
  Tensor y = x;
  for (int i = 0; i < kChainOps; ++i) {
    y = i % 3 == 0 ? y * 1.01 : i % 3 == 1 ? y + 0.01 : y.relu();
  }
  const Tensor loss = y.sum();
  for (auto _ : state) {
    loss.backward({}, /*retain_graph=*/true);
    benchmark::DoNotOptimize(x.grad());
  }
  state.SetItemsProcessed(state.iterations() * (kChainOps + 1));
}

void torch_autograd_chain(benchmark::State& state) {
  at::Tensor x = torch::ones({kChainNumel}).requires_grad_();
  at::Tensor y = x;
  for (int i = 0; i < kChainOps; ++i) {
    y = i % 3 == 0 ? y * 1.01 : i % 3 == 1 ? y + 0.01 : y.relu();
  }
  const at::Tensor loss = y.sum();
  for (auto _ : state) {
    loss.backward({}, /*retain_graph=*/true);
    benchmark::DoNotOptimize(x.grad());
  }
  state.SetItemsProcessed(state.iterations() * (kChainOps + 1));
}

void register_pair(const char* name, void (*tide_case)(benchmark::State&),
                   void (*torch_case)(benchmark::State&), benchmark::TimeUnit unit) {
  const std::string base = name;
  benchmark::RegisterBenchmark((base + "/tide").c_str(), tide_case)->UseRealTime()->Unit(unit);
  benchmark::RegisterBenchmark((base + "/libtorch").c_str(), torch_case)->UseRealTime()->Unit(unit);
}

}  // namespace

void register_training_cases() {
  register_pair("mlp_step_64", tide_mlp_step<64>, torch_mlp_step<64>, benchmark::kMicrosecond);
  register_pair("mlp_step_1024", tide_mlp_step<1024>, torch_mlp_step<1024>,
                benchmark::kMillisecond);
  register_pair("autograd_chain_100", tide_autograd_chain, torch_autograd_chain,
                benchmark::kMicrosecond);
}

}  // namespace tide::bench
