// The C++ half of the training-loop parity test (tests/python/test_train_loop_parity.py):
// the same small loop as the test's torch-idiom Python version — a module with two Linear
// layers and ReLU, a shuffled DataLoader with pinned batches over deterministic data, SGD with
// momentum — printing one loss per line for 100 steps. Usage: tide_train_loop_reference
// cpu|cuda. Every random draw (the Linear layers, each epoch's shuffle seed) comes from
// manual_seed(0) in the same order as the Python version's, so the losses agree.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tide/tide.h"

namespace {

constexpr int64_t kSamples = 64, kFeatures = 4, kHidden = 16, kClasses = 3, kBatch = 8;
constexpr int kSteps = 100;

struct Net : tide::nn::Cloneable<Net> {
  Net() { reset(); }
  void reset() override {
    fc1 = register_module("fc1", std::make_shared<tide::nn::Linear>(kFeatures, kHidden));
    fc2 = register_module("fc2", std::make_shared<tide::nn::Linear>(kHidden, kClasses));
  }
  tide::Tensor forward(const tide::Tensor& x) override {
    return fc2->forward(tide::relu(fc1->forward(x)));
  }
  std::shared_ptr<tide::nn::Linear> fc1, fc2;
};

/// x[i][j] = ((i * 4 + j) * 37 % 11) / 11 - 0.5 (computed in double, stored as float) and the
/// class y[i] = (i * 4 * 37 % 11) % 3, a function of x[i][0], so the loss can go down; the
/// test's Python code computes the same values.
std::pair<tide::Tensor, tide::Tensor> make_data() {
  std::vector<float> x(kSamples * kFeatures);
  std::vector<int64_t> y(kSamples);
  for (int64_t k = 0; k < kSamples * kFeatures; ++k) {
    x[static_cast<size_t>(k)] = static_cast<float>(static_cast<double>(k * 37 % 11) / 11.0 - 0.5);
  }
  for (int64_t i = 0; i < kSamples; ++i) y[static_cast<size_t>(i)] = i * kFeatures * 37 % 11 % kClasses;
  return {tide::from_blob(x.data(), {kSamples, kFeatures}, tide::dtype(tide::kFloat32)).clone(),
          tide::from_blob(y.data(), {kSamples}, tide::dtype(tide::kInt64)).clone()};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string where = argc > 1 ? argv[1] : "cpu";
  if (where != "cpu" && where != "cuda") {
    std::fprintf(stderr, "usage: %s cpu|cuda\n", argv[0]);
    return 2;
  }
  const tide::Device device = where == "cuda" ? tide::Device(tide::kCUDA, 0) : tide::Device(tide::kCPU);
  tide::manual_seed(0);
  Net model;
  model.to(device);
  auto [x, y] = make_data();
  tide::data::DataLoader loader(std::make_shared<tide::data::TensorDataset>(x, y),
                                tide::data::DataLoaderOptions().batch_size(kBatch).shuffle(true).pin_memory(true));
  tide::optim::SGD optimizer(model.parameters(), tide::optim::SGDOptions(0.1).momentum(0.9));
  int step = 0;
  while (step < kSteps) {
    for (const tide::data::Example& batch : loader) {
      const tide::Tensor input = batch.data.to(device, /*non_blocking=*/true);
      const tide::Tensor target = batch.target.to(device, /*non_blocking=*/true);
      const tide::Tensor loss = tide::cross_entropy(model(input), target);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      std::printf("%.9g\n", loss.item().to_double());
      if (++step == kSteps) break;
    }
  }
  return 0;
}
