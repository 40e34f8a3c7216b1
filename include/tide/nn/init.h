#pragma once
// nn::init (torch.nn.init, as libtorch's torch::nn::init): fill a tensor in place, without
// recording autograd, from the distributions torch's initializers use, with torch's bounds,
// gains and fans. Nonlinearities and fan modes are torch's words ("leaky_relu", "fan_in").
// The draws come from tide's generator: torch's distributions, not torch's numbers.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::nn::init {

/// The recommended gain for a nonlinearity: 1 for linear/conv*/sigmoid, 5/3 tanh, sqrt(2)
/// relu, sqrt(2 / (1 + slope^2)) leaky_relu (param: the slope, 0.01 by default), 3/4 selu.
double calculate_gain(std::string_view nonlinearity, std::optional<double> param = std::nullopt);
/// (fan_in, fan_out) of a weight of 2 or more dims: size(1) and size(0) times the receptive
/// field (the product of the dims after the second).
std::pair<int64_t, int64_t> calculate_fan_in_and_fan_out(const Tensor& tensor);

Tensor& uniform_(Tensor& tensor, double a = 0.0, double b = 1.0);
Tensor& normal_(Tensor& tensor, double mean = 0.0, double std = 1.0);
/// N(mean, std^2) restricted to [a, b], by the inverse CDF as torch.
Tensor& trunc_normal_(Tensor& tensor, double mean = 0.0, double std = 1.0, double a = -2.0,
                      double b = 2.0);
Tensor& constant_(Tensor& tensor, Scalar value);
Tensor& ones_(Tensor& tensor);
Tensor& zeros_(Tensor& tensor);
/// The identity in a 2-D tensor.
Tensor& eye_(Tensor& tensor);
/// The Dirac delta in a 3-, 4- or 5-D convolution weight (each output channel of a group
/// passes its input channel through).
Tensor& dirac_(Tensor& tensor, int64_t groups = 1);
/// U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)).
Tensor& xavier_uniform_(Tensor& tensor, double gain = 1.0);
/// N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)).
Tensor& xavier_normal_(Tensor& tensor, double gain = 1.0);
/// U(-bound, bound), bound = gain(nonlinearity, a) * sqrt(3 / fan), fan by mode.
Tensor& kaiming_uniform_(Tensor& tensor, double a = 0.0, std::string_view mode = "fan_in",
                         std::string_view nonlinearity = "leaky_relu");
/// N(0, std^2), std = gain(nonlinearity, a) / sqrt(fan), fan by mode.
Tensor& kaiming_normal_(Tensor& tensor, double a = 0.0, std::string_view mode = "fan_in",
                        std::string_view nonlinearity = "leaky_relu");
/// A (semi-)orthogonal matrix times gain from a normal draw's QR (trailing dims flattened).
Tensor& orthogonal_(Tensor& tensor, double gain = 1.0);

}  // namespace tide::nn::init
