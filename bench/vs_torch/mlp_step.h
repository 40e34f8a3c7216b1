#pragma once
// MlpStep_64 and MlpStep_1024 (issue 23): one training step of an MLP 784-256-256-10 with ReLU,
// cross entropy and SGD with momentum 0.9 (zero_grad, forward, loss, backward, step) on device
// 0, at batch 64 and 1024, as bench/vs_libtorch's mlp_step_B on the cpu. Free of tide and
// torch headers, so both sides include it.
//
// Note [MLP step timing]: host throughput, as TinyAdd (Note [GPU bench timing] in cases.h):
// kStepBatch steps are enqueued, then the library's stream is waited for, so the time per
// iteration is per step with the wait amortized: whichever of the host's enqueue (launch
// overhead: the batch-64 step is a few dozen small kernels) and the GPU's work is slower sets
// it. Items are samples, so items_per_second reads samples per second; steps per second is
// the inverse of the time. Inputs are filled by the raw kernels and targets are (i * 7) % 10,
// so both sides train on the same values; the parameters start from each library's own
// manual_seed(0) initialisation (the same distribution, not the same values: the step's cost
// does not depend on them).

#include <cstdint>
#include <vector>

namespace tide::bench::gpu {

inline constexpr int64_t kMlpIn = 784, kMlpHidden = 256, kMlpClasses = 10;
inline constexpr int kStepBatch = 20;  // steps between stream waits
inline constexpr double kMlpLr = 0.01, kMlpMomentum = 0.9;

/// The batches measured, each registered as "MlpStep_<batch>/<side>".
inline const std::vector<int64_t>& mlp_batches() {
  static const std::vector<int64_t> batches{64, 1024};
  return batches;
}

inline std::vector<int64_t> mlp_targets(int64_t batch) {
  std::vector<int64_t> v(static_cast<size_t>(batch));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 7) % kMlpClasses);
  return v;
}

}  // namespace tide::bench::gpu
