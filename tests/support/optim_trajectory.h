#pragma once
// Running the optimizer goldens (tests/fixtures/optim_goldens.json, written from libtorch by
// scripts/gen_optim_goldens) with tide's fused steps: the same problem, gradient and options,
// on any device. Shared by the cpu trajectory test and the device test.

#include <nlohmann/json.hpp>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "optim/adam_step.h"
#include "optim/sgd_step.h"
#include "support/golden_json.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/autograd.h"
#include "tide/optim/adam.h"
#include "tide/optim/adam_options.h"
#include "tide/optim/sgd.h"
#include "tide/optim/sgd_options.h"
#include "tide/tensor.h"

namespace tide::test {

/// The golden's SGD options (every field, libtorch's names).
inline optim::SGDOptions sgd_options_from(const nlohmann::json& o) {
  return optim::SGDOptions(o.at("lr").get<double>())
      .momentum(o.at("momentum").get<double>())
      .dampening(o.at("dampening").get<double>())
      .weight_decay(o.at("weight_decay").get<double>())
      .nesterov(o.at("nesterov").get<bool>());
}

/// The golden's Adam options (every field, libtorch's names).
inline optim::AdamOptions adam_options_from(const nlohmann::json& o) {
  return optim::AdamOptions(o.at("lr").get<double>())
      .betas({o.at("betas").at(0).get<double>(), o.at("betas").at(1).get<double>()})
      .eps(o.at("eps").get<double>())
      .weight_decay(o.at("weight_decay").get<double>())
      .amsgrad(o.at("amsgrad").get<bool>());
}

/// The gradient of 0.5 * ||A X - B||^2 at X: A^T (A X - B), with tide ops on X's device.
inline Tensor least_squares_grad(const Tensor& a, const Tensor& x, const Tensor& b) {
  return a.t().matmul(a.matmul(x) - b);
}

/// The parameter after each step of the golden's optimizer, run with tide's fused steps on
/// `device` from the golden's X0, state made as the optimizer will make it (an empty momentum
/// buffer filled by the first step; zeroed Adam averages).
inline std::vector<Tensor> run_trajectory(const Golden& golden, Device device) {
  const nlohmann::json& spec = golden.spec;
  const Tensor a = tensor_from_json(spec.at("A")).to(device);
  const Tensor b = tensor_from_json(spec.at("B")).to(device);
  Tensor x = tensor_from_json(spec.at("x0")).to(device);
  const size_t steps = spec.at("trajectory").size();
  std::vector<Tensor> trajectory;
  if (spec.at("optimizer") == "sgd") {
    const optim::SGDOptions options = sgd_options_from(spec.at("options"));
    Tensor buf = empty_like(x);
    for (size_t i = 0; i < steps; ++i) {
      optim::detail::sgd_step_(x, least_squares_grad(a, x, b), buf, options, i == 0);
      trajectory.push_back(x.clone());
    }
  } else {
    const optim::AdamOptions options = adam_options_from(spec.at("options"));
    Tensor m = zeros_like(x), v = zeros_like(x);
    Tensor v_max = options.amsgrad() ? zeros_like(x) : Tensor();
    for (size_t i = 0; i < steps; ++i) {
      optim::detail::adam_step_(x, least_squares_grad(a, x, b), m, v, v_max,
                                static_cast<int64_t>(i + 1), options);
      trajectory.push_back(x.clone());
    }
  }
  return trajectory;
}

/// The same trajectory as a training loop writes it, as the golden's generator did with
/// libtorch: an SGD or Adam optimizer over the leaf X, and each step zero_grad, the loss
/// 0.5 * (A X - B).pow(2).sum() through autograd, backward, step.
inline std::vector<Tensor> run_trajectory_with_optimizer(const Golden& golden, Device device) {
  const nlohmann::json& spec = golden.spec;
  const Tensor a = tensor_from_json(spec.at("A")).to(device);
  const Tensor b = tensor_from_json(spec.at("B")).to(device);
  Tensor x = tensor_from_json(spec.at("x0")).to(device).requires_grad_();
  std::unique_ptr<optim::Optimizer> opt;
  if (spec.at("optimizer") == "sgd") {
    opt = std::make_unique<optim::SGD>(std::vector<Tensor>{x}, sgd_options_from(spec.at("options")));
  } else {
    opt = std::make_unique<optim::Adam>(std::vector<Tensor>{x}, adam_options_from(spec.at("options")));
  }
  std::vector<Tensor> trajectory;
  for (size_t i = 0; i < spec.at("trajectory").size(); ++i) {
    opt->zero_grad();
    const Tensor loss = (a.matmul(x) - b).pow(2).sum() * 0.5;
    loss.backward();
    opt->step();
    trajectory.push_back(x.detach().clone());
  }
  return trajectory;
}

}  // namespace tide::test
