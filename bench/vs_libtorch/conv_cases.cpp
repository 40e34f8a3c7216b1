// Note [Convolution benchmarks]: the same work on both sides, in one process (issue 27).
// - conv_layer_64: forward and backward of one convolution in the middle of a network: batch
//   64, 32 -> 64 channels, 3x3, padding 1, 28x28, with bias; the input requires grad, so the
//   backward computes the input's, the weight's and the bias's gradients.
// - cnn_step_64: one training step of `tide train --model cnn` (two conv-BatchNorm-ReLU-maxpool
//   blocks, 1 -> 32 -> 64 channels, a linear head; cross entropy, SGD with momentum 0.9) at
//   batch 64 on fixed inputs.
// Items are samples.

#include "conv_cases.h"

#include <torch/torch.h>
#include <benchmark/benchmark.h>

#include <tide/tide.h>

#include "tide_cases.h"

namespace tide::bench {
namespace {

constexpr int64_t kBatch = 64, kSide = 28, kIn = 32, kOut = 64;

std::vector<float> values(int64_t n, int seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = input_value(static_cast<int64_t>(i), seed);
  return v;
}
std::vector<int64_t> targets() {
  std::vector<int64_t> v(static_cast<size_t>(kBatch));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 7) % 10);
  return v;
}

void tide_conv_layer(benchmark::State& state) {
  std::vector<float> xs = values(kBatch * kIn * kSide * kSide, 3);
  std::vector<float> ws = values(kOut * kIn * 9, 5);
  const Tensor x = from_blob(xs.data(), {kBatch, kIn, kSide, kSide}, dtype(kFloat32))
                       .clone()
                       .requires_grad_();
  const Tensor w = from_blob(ws.data(), {kOut, kIn, 3, 3}, dtype(kFloat32)).clone().requires_grad_();
  const Tensor b = zeros({kOut}).requires_grad_();
  for (auto _ : state) {
    Tensor y = conv2d(x, w, b, 1, 1);
    y.sum().backward();
    benchmark::DoNotOptimize(w.grad());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void torch_conv_layer(benchmark::State& state) {
  std::vector<float> xs = values(kBatch * kIn * kSide * kSide, 3);
  std::vector<float> ws = values(kOut * kIn * 9, 5);
  const at::Tensor x = torch::from_blob(xs.data(), {kBatch, kIn, kSide, kSide}, torch::kFloat)
                           .clone()
                           .requires_grad_();
  const at::Tensor w =
      torch::from_blob(ws.data(), {kOut, kIn, 3, 3}, torch::kFloat).clone().requires_grad_();
  const at::Tensor b = torch::zeros({kOut}).requires_grad_();
  for (auto _ : state) {
    at::Tensor y = torch::conv2d(x, w, b, 1, 1);
    y.sum().backward();
    benchmark::DoNotOptimize(w.grad());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void tide_cnn_step(benchmark::State& state) {
  tide::manual_seed(0);
  nn::Sequential net(nn::Conv2d(1, 32, {3, 3}, 1, 1, 1, 1, false), nn::BatchNorm2d(32),
                     nn::ReLU(), nn::MaxPool2d(2), nn::Conv2d(32, 64, {3, 3}, 1, 1, 1, 1, false),
                     nn::BatchNorm2d(64), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(),
                     nn::Linear(64 * 7 * 7, 10));
  optim::SGD opt(net.parameters(), optim::SGDOptions(0.02).momentum(0.9));
  std::vector<float> xs = values(kBatch * kSide * kSide, 7);
  std::vector<int64_t> ys = targets();
  const Tensor x = from_blob(xs.data(), {kBatch, 1, kSide, kSide}, dtype(kFloat32)).clone();
  const Tensor y = from_blob(ys.data(), {kBatch}, dtype(kInt64)).clone();
  for (auto _ : state) {
    opt.zero_grad();
    Tensor loss = cross_entropy(net(x), y);
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void torch_cnn_step(benchmark::State& state) {
  namespace tnn = torch::nn;
  torch::manual_seed(0);
  tnn::Sequential net(tnn::Conv2d(tnn::Conv2dOptions(1, 32, 3).padding(1).bias(false)),
                      tnn::BatchNorm2d(32), tnn::ReLU(), tnn::MaxPool2d(2),
                      tnn::Conv2d(tnn::Conv2dOptions(32, 64, 3).padding(1).bias(false)),
                      tnn::BatchNorm2d(64), tnn::ReLU(), tnn::MaxPool2d(2), tnn::Flatten(),
                      tnn::Linear(64 * 7 * 7, 10));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.02).momentum(0.9));
  std::vector<float> xs = values(kBatch * kSide * kSide, 7);
  std::vector<int64_t> ys = targets();
  const at::Tensor x = torch::from_blob(xs.data(), {kBatch, 1, kSide, kSide}, torch::kFloat).clone();
  const at::Tensor y = torch::from_blob(ys.data(), {kBatch}, torch::kLong).clone();
  for (auto _ : state) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void register_pair(const char* name, void (*tide_case)(benchmark::State&),
                   void (*torch_case)(benchmark::State&)) {
  const std::string base = name;
  benchmark::RegisterBenchmark((base + "/tide").c_str(), tide_case)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((base + "/libtorch").c_str(), torch_case)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_conv_cases() {
  register_pair("conv_layer_64", tide_conv_layer, torch_conv_layer);
  register_pair("cnn_step_64", tide_cnn_step, torch_cnn_step);
}

}  // namespace tide::bench
