// The torch side of MlpStep_B (mlp_step.h): libtorch's C++ frontend (torch::nn, autograd,
// torch::optim::SGD) on device 0, on torch's current stream. No tide header is included here.

#include <benchmark/benchmark.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <string>

#include "cases.h"
#include "mlp_step.h"
#include "raw_kernels.h"

namespace tide::bench::gpu {
namespace {

void mlp_step(benchmark::State& state, int64_t batch) {
  const torch::Device gpu(torch::kCUDA, 0);
  torch::manual_seed(0);
  torch::nn::Sequential net(torch::nn::Linear(kMlpIn, kMlpHidden), torch::nn::ReLU(),
                            torch::nn::Linear(kMlpHidden, kMlpHidden), torch::nn::ReLU(),
                            torch::nn::Linear(kMlpHidden, kMlpClasses));
  net->to(gpu);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(kMlpLr).momentum(kMlpMomentum));
  c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream(0);
  const at::Tensor x = at::empty({batch, kMlpIn}, at::TensorOptions().dtype(at::kFloat).device(gpu));
  raw_fill_f32(x.data_ptr<float>(), x.numel(), 7, stream.stream());
  std::vector<int64_t> ys = mlp_targets(batch);
  const at::Tensor y = torch::from_blob(ys.data(), {batch}, torch::kLong).to(gpu);
  auto step = [&] {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss);
  };
  step();
  stream.synchronize();
  while (state.KeepRunningBatch(kStepBatch)) {
    for (int i = 0; i < kStepBatch; ++i) step();
    stream.synchronize();
  }
  state.SetItemsProcessed(state.iterations() * batch);
}

}  // namespace

void register_torch_train_cases() {
  for (int64_t batch : mlp_batches()) {
    benchmark::RegisterBenchmark(("MlpStep_" + std::to_string(batch) + "/torch").c_str(),
                                 [batch](benchmark::State& s) { mlp_step(s, batch); })
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace tide::bench::gpu
