#include "tide/nn/batch_norm.h"

#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn {

BatchNorm2d::BatchNorm2d(int64_t num_features, double eps, std::optional<double> momentum,
                         bool affine, bool track_running_stats)
    : num_features(num_features),
      eps(eps),
      momentum(momentum),
      affine(affine),
      track_running_stats(track_running_stats) {
  TIDE_CHECK(num_features > 0, "[nn::BatchNorm2d] expected a positive num_features, got ",
             num_features, "; pass the number of channels (dim 1 of the input)");
  reset();
  reset_parameters();
}

void BatchNorm2d::reset() {
  weight = affine ? register_parameter("weight", empty({num_features})) : Tensor();
  bias = affine ? register_parameter("bias", empty({num_features})) : Tensor();
  if (track_running_stats) {
    running_mean = register_buffer("running_mean", empty({num_features}));
    running_var = register_buffer("running_var", empty({num_features}));
    num_batches_tracked = register_buffer("num_batches_tracked", zeros({}, dtype(kInt64)));
  } else {
    running_mean = running_var = num_batches_tracked = Tensor();
  }
}

void BatchNorm2d::reset_running_stats() {
  if (!track_running_stats) return;
  NoGradGuard no_grad;
  running_mean.zero_();
  running_var.fill_(1);
  num_batches_tracked.zero_();
}

void BatchNorm2d::reset_parameters() {
  reset_running_stats();
  if (!affine) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

Tensor BatchNorm2d::forward(const Tensor& input) {
  TIDE_CHECK(input.defined() && input.dim() == 4, "[nn::BatchNorm2d] expected 4D input (got ",
             input.defined() ? input.dim() : 0, "D input); BatchNorm2d normalizes (N, C, H, W)");
  // torch's _BatchNorm.forward: the factor, the batch count, and which statistics to use.
  double factor = momentum.value_or(0.0);
  if (is_training() && track_running_stats) {
    NoGradGuard no_grad;
    num_batches_tracked.add_(1);
    if (!momentum) factor = 1.0 / static_cast<double>(num_batches_tracked.item<int64_t>());
  }
  const bool use_batch_stats = is_training() || !track_running_stats;
  const bool update = !is_training() || track_running_stats;
  return batch_norm(input, weight, bias, update ? running_mean : Tensor(),
                    update ? running_var : Tensor(), use_batch_stats, factor, eps);
}

}  // namespace tide::nn
