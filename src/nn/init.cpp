#include "tide/nn/init.h"

#include <cmath>
#include <string>
#include <vector>

#include "tide/autograd.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::nn::init {
namespace {

double fan(const Tensor& tensor, std::string_view mode) {
  TIDE_CHECK(mode == "fan_in" || mode == "fan_out", "[nn::init] Mode ", mode,
             " not supported, please use one of ['fan_in', 'fan_out']");
  const auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(tensor);
  return static_cast<double>(mode == "fan_in" ? fan_in : fan_out);
}

double kaiming_std(const Tensor& tensor, double a, std::string_view mode,
                   std::string_view nonlinearity) {
  return calculate_gain(nonlinearity, a) / std::sqrt(fan(tensor, mode));
}

/// Q of matrix = QR with R's diagonal positive (torch's linalg.qr and sign correction), by
/// modified Gram-Schmidt on the columns in float64.
Tensor orthonormal_columns(const Tensor& matrix) {
  std::vector<Tensor> columns;
  for (int64_t j = 0; j < matrix.size(1); ++j) columns.push_back(matrix.select(1, j).to(kFloat64));
  for (size_t j = 0; j < columns.size(); ++j) {
    Tensor v = columns[j];
    for (size_t i = 0; i < j; ++i) v = v - (columns[i] * v).sum() * columns[i];
    columns[j] = v / (v * v).sum().sqrt();
  }
  return stack(columns, 1);
}

}  // namespace

double calculate_gain(std::string_view nonlinearity, std::optional<double> param) {
  for (std::string_view linear : {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                                  "conv_transpose2d", "conv_transpose3d", "sigmoid"}) {
    if (nonlinearity == linear) return 1.0;
  }
  if (nonlinearity == "tanh") return 5.0 / 3;
  if (nonlinearity == "relu") return std::sqrt(2.0);
  if (nonlinearity == "leaky_relu") {
    const double slope = param.value_or(0.01);
    return std::sqrt(2.0 / (1 + slope * slope));
  }
  if (nonlinearity == "selu") return 3.0 / 4;
  TIDE_CHECK(false, "[nn::init::calculate_gain] Unsupported nonlinearity ", nonlinearity,
             "; use linear, conv*, sigmoid, tanh, relu, leaky_relu or selu");
  return 0;
}

std::pair<int64_t, int64_t> calculate_fan_in_and_fan_out(const Tensor& tensor) {
  TIDE_CHECK(tensor.dim() >= 2, "[nn::init] Fan in and fan out can not be computed for tensor "
             "with fewer than 2 dimensions (found ", tensor.dim(), ")");
  int64_t receptive = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive *= tensor.size(d);
  return {tensor.size(1) * receptive, tensor.size(0) * receptive};
}

Tensor& uniform_(Tensor& tensor, double a, double b) {
  NoGradGuard no_grad;
  return tensor.uniform_(a, b);
}

Tensor& normal_(Tensor& tensor, double mean, double std) {
  NoGradGuard no_grad;
  return tensor.normal_(mean, std);
}

Tensor& trunc_normal_(Tensor& tensor, double mean, double std, double a, double b) {
  const auto cdf = [](double x) { return (1.0 + std::erf(x / std::sqrt(2.0))) / 2.0; };
  NoGradGuard no_grad;
  const double lower = cdf((a - mean) / std), upper = cdf((b - mean) / std);
  tensor.uniform_(2 * lower - 1, 2 * upper - 1);
  tensor.erfinv_();
  tensor.mul_(std * std::sqrt(2.0));
  tensor.copy_((tensor + mean).clamp(a, b));
  return tensor;
}

Tensor& constant_(Tensor& tensor, Scalar value) {
  NoGradGuard no_grad;
  return tensor.fill_(value);
}

Tensor& ones_(Tensor& tensor) { return constant_(tensor, 1.0); }

Tensor& zeros_(Tensor& tensor) {
  NoGradGuard no_grad;
  return tensor.zero_();
}

Tensor& eye_(Tensor& tensor) {
  TIDE_CHECK(tensor.dim() == 2, "[nn::init::eye_] Only tensors with 2 dimensions are "
             "supported (found ", tensor.dim(), ")");
  NoGradGuard no_grad;
  tensor.zero_();
  for (int64_t i = 0; i < std::min(tensor.size(0), tensor.size(1)); ++i) {
    tensor.select(0, i).select(0, i).fill_(1);
  }
  return tensor;
}

Tensor& dirac_(Tensor& tensor, int64_t groups) {
  const int64_t dims = tensor.dim();
  TIDE_CHECK(dims >= 3 && dims <= 5, "[nn::init::dirac_] Only tensors with 3, 4, or 5 "
             "dimensions are supported (found ", dims, ")");
  TIDE_CHECK(groups > 0 && tensor.size(0) % groups == 0,
             "[nn::init::dirac_] dim 0 must be divisible by groups (found ", tensor.size(0),
             " and groups ", groups, ")");
  const int64_t per_group = tensor.size(0) / groups;
  NoGradGuard no_grad;
  tensor.zero_();
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t d = 0; d < std::min(per_group, tensor.size(1)); ++d) {
      Tensor at = tensor.select(0, g * per_group + d).select(0, d);
      while (at.dim() > 0) at = at.select(0, at.size(0) / 2);  // the kernel's centre
      at.fill_(1);
    }
  }
  return tensor;
}

Tensor& xavier_uniform_(Tensor& tensor, double gain) {
  const auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(tensor);
  const double a = std::sqrt(3.0) * gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
  return uniform_(tensor, -a, a);
}

Tensor& xavier_normal_(Tensor& tensor, double gain) {
  const auto [fan_in, fan_out] = calculate_fan_in_and_fan_out(tensor);
  return normal_(tensor, 0.0, gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out)));
}

Tensor& kaiming_uniform_(Tensor& tensor, double a, std::string_view mode,
                         std::string_view nonlinearity) {
  if (tensor.numel() == 0) return tensor;  // torch warns and leaves it
  const double bound = std::sqrt(3.0) * kaiming_std(tensor, a, mode, nonlinearity);
  return uniform_(tensor, -bound, bound);
}

Tensor& kaiming_normal_(Tensor& tensor, double a, std::string_view mode,
                        std::string_view nonlinearity) {
  if (tensor.numel() == 0) return tensor;
  return normal_(tensor, 0.0, kaiming_std(tensor, a, mode, nonlinearity));
}

Tensor& orthogonal_(Tensor& tensor, double gain) {
  TIDE_CHECK(tensor.dim() >= 2, "[nn::init::orthogonal_] Only tensors with 2 or more "
             "dimensions are supported (found ", tensor.dim(), ")");
  if (tensor.numel() == 0) return tensor;
  const int64_t rows = tensor.size(0), cols = tensor.numel() / rows;
  NoGradGuard no_grad;
  Tensor flattened = empty({rows, cols}, TensorOptions().device(tensor.device())).normal_(0, 1);
  if (rows < cols) flattened = flattened.t();
  Tensor q = orthonormal_columns(flattened);
  if (rows < cols) q = q.t();
  tensor.copy_(q.mul(gain).reshape(tensor.sizes()).to(tensor.dtype()));
  return tensor;
}

}  // namespace tide::nn::init
