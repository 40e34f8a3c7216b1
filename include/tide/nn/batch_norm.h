#pragma once
// nn::BatchNorm2d (torch.nn.BatchNorm2d): normalizes each channel of (N, C, H, W) by the
// batch's statistics in training and by the running ones in eval.
//
// Note [BatchNorm buffers]: running_mean, running_var and num_batches_tracked are buffers, so
// they move with the module (cuda(), to(): in place, as parameters), are saved by state_dict and
// tide::save, and are copied by clone() (DataParallel's replicas). Training updates them in
// place without recording (the op does it under no_grad), and counts the batch.

#include <cstdint>
#include <optional>

#include "tide/nn/module.h"

namespace tide::nn {

class BatchNorm2d : public Cloneable<BatchNorm2d> {
 public:
  /// weight = 1, bias = 0, running_mean = 0, running_var = 1, num_batches_tracked = 0 (int64,
  /// 0-dim), as torch. momentum nullopt: the running statistics are the cumulative average
  /// (factor 1 / num_batches_tracked). Without track_running_stats, eval also normalizes by
  /// the batch's statistics and there are no buffers.
  explicit BatchNorm2d(int64_t num_features, double eps = 1e-5,
                       std::optional<double> momentum = 0.1, bool affine = true,
                       bool track_running_stats = true);

  Tensor forward(const Tensor& input) override;
  void reset() override;
  /// running_mean = 0, running_var = 1, num_batches_tracked = 0.
  void reset_running_stats();
  /// reset_running_stats(), weight = 1, bias = 0.
  void reset_parameters();

  int64_t num_features;
  double eps;
  std::optional<double> momentum;
  bool affine, track_running_stats;
  Tensor weight, bias;                                         // undefined without affine
  Tensor running_mean, running_var, num_batches_tracked;       // undefined without tracking
};

}  // namespace tide::nn
