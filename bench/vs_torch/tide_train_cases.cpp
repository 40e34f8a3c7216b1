// The tide side of MlpStep_B (mlp_step.h): tide's C++ nn, autograd and fused SGD on device 0.

#include <benchmark/benchmark.h>

#include <string>

#include "backends/cuda/raw_stream.h"
#include "cases.h"
#include "mlp_step.h"
#include "raw_kernels.h"
#include "tide/cuda.h"
#include "tide/tide.h"

namespace tide::bench::gpu {
namespace {

void mlp_step(benchmark::State& state, int64_t batch) {
  const Device gpu(kCUDA, 0);
  manual_seed(0);
  nn::Sequential net(nn::Linear(kMlpIn, kMlpHidden), nn::ReLU(), nn::Linear(kMlpHidden, kMlpHidden),
                     nn::ReLU(), nn::Linear(kMlpHidden, kMlpClasses));
  net.to(gpu);
  optim::SGD opt(net.parameters(), optim::SGDOptions(kMlpLr).momentum(kMlpMomentum));
  const Tensor x = empty({batch, kMlpIn}, TensorOptions(gpu).dtype(kFloat32));
  raw_fill_f32(x.data_ptr<float>(), x.numel(), 7, backends::cuda::raw_stream(cuda::current_stream(0)));
  std::vector<int64_t> ys = mlp_targets(batch);
  const Tensor y = from_blob(ys.data(), {batch}, dtype(kInt64)).to(gpu);
  auto step = [&] {
    opt.zero_grad();
    Tensor loss = cross_entropy(net(x), y);
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss);
  };
  step();  // the first step makes the momentum buffers and the cuBLAS handle
  cuda::synchronize(0);
  while (state.KeepRunningBatch(kStepBatch)) {
    for (int i = 0; i < kStepBatch; ++i) step();
    cuda::current_stream(0).synchronize();
  }
  state.SetItemsProcessed(state.iterations() * batch);
}

}  // namespace

void register_tide_train_cases() {
  for (int64_t batch : mlp_batches()) {
    benchmark::RegisterBenchmark(("MlpStep_" + std::to_string(batch) + "/tide").c_str(),
                                 [batch](benchmark::State& s) { mlp_step(s, batch); })
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace tide::bench::gpu
