// batch_norm (torch.batch_norm / F.batch_norm) over dim 1 of (N, C, ...) inputs.
//
// Note [Batch norm as a composite]: normalization is written with existing ops (mean, sub,
// mul, rsqrt), so it runs on every device those run on and autograd differentiates it through
// them — the traced and the plain front end are the same function. The running statistics are
// updated in place with grad mode off, as torch does (they are buffers, never part of the
// graph): running = (1 - momentum) * running + momentum * batch, the variance unbiased
// (n / (n - 1)) as torch's. A fused kernel (oneDNN's / cuDNN's batch normalization) would save
// passes over the input; this keeps one implementation until that is measured to matter.

#include <vector>

#include "autograd/hooks.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/autograd.h"
#include "tide/ops.h"

namespace tide {
namespace {

/// Checks a per-channel argument: undefined, or a vector of `channels` elements on the
/// input's device.
void check_channel_vector(const Tensor& t, int64_t channels, const char* what) {
  if (!t.defined()) return;
  TIDE_CHECK(t.dim() == 1 && t.size(0) == channels, "[batch_norm] expected ", what,
             " to have ", channels, " elements (one per channel of input's dim 1), found ",
             t.numel(), " in ", t.dim(), " dims");
}

Tensor batch_norm_composite(const Tensor& input, const Tensor& weight, const Tensor& bias,
                            const Tensor& running_mean, const Tensor& running_var,
                            bool training, double momentum, double eps) {
  detail::check_defined(input, "batch_norm", "input");
  detail::same_device({{"input", &input},
                       {"weight", &weight},
                       {"bias", &bias},
                       {"running_mean", &running_mean},
                       {"running_var", &running_var}},
                      "batch_norm");
  TIDE_CHECK(input.dim() >= 2, "[batch_norm] expected an input of 2 or more dims (N, C, ...), "
             "found ", input.dim(), " dims");
  TIDE_CHECK(input.is_floating_point(), "[batch_norm] expected a floating point input, found ",
             name(input.dtype()), "; convert it with .to(tide::kFloat32)");
  const int64_t channels = input.size(1);
  check_channel_vector(weight, channels, "weight");
  check_channel_vector(bias, channels, "bias");
  check_channel_vector(running_mean, channels, "running_mean");
  check_channel_vector(running_var, channels, "running_var");
  // Per-channel vectors broadcast as (C, 1, 1, ...) against (N, C, ...).
  std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
  shape[1] = channels;
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  const auto per_channel = [&](const Tensor& t) { return t.reshape(shape); };

  Tensor mean, var;
  if (training) {
    const int64_t count = input.numel() / channels;
    TIDE_CHECK(count > 1, "[batch_norm] Expected more than 1 value per channel when training, "
               "got an input of ", input.numel(), " elements and ", channels,
               " channels; use a larger batch or eval()");
    mean = input.mean(dims);
    const Tensor centered = input - per_channel(mean);
    var = (centered * centered).mean(dims);
    if (running_mean.defined() || running_var.defined()) {
      NoGradGuard no_grad;
      const double unbias = static_cast<double>(count) / static_cast<double>(count - 1);
      if (running_mean.defined()) {
        Tensor(running_mean).mul_(1 - momentum).add_(mean.detach(), momentum);
      }
      if (running_var.defined()) {
        Tensor(running_var).mul_(1 - momentum).add_(var.detach(), momentum * unbias);
      }
    }
    Tensor out = centered * per_channel(1.0 / sqrt(var + eps));
    if (weight.defined()) out = out * per_channel(weight);
    return bias.defined() ? out + per_channel(bias) : out;
  }
  TIDE_CHECK(running_mean.defined() && running_var.defined(),
             "[batch_norm] running_mean and running_var must be defined in evaluation mode; "
             "pass them, or training=true");
  mean = running_mean;
  var = running_var;
  Tensor scale = 1.0 / sqrt(var + eps);
  if (weight.defined()) scale = scale * weight;
  Tensor out = (input - per_channel(mean)) * per_channel(scale);
  return bias.defined() ? out + per_channel(bias) : out;
}

}  // namespace

namespace detail {

Tensor plain_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        const Tensor& running_mean, const Tensor& running_var, bool training,
                        double momentum, double eps, bool /*cudnn_enabled*/) {
  return batch_norm_composite(input, weight, bias, running_mean, running_var, training,
                              momentum, eps);
}

}  // namespace detail

namespace autograd::traced {

Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& running_mean, const Tensor& running_var, bool training,
                  double momentum, double eps, bool /*cudnn_enabled*/) {
  // The ops it is made of record themselves (Note [Batch norm as a composite]).
  return batch_norm_composite(input, weight, bias, running_mean, running_var, training,
                              momentum, eps);
}

}  // namespace autograd::traced

}  // namespace tide
