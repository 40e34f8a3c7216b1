#pragma once
// Running the optimizer goldens (tests/fixtures/optim_goldens.json, written from libtorch by
// scripts/gen_optim_goldens: SGD and Adam; tests/fixtures/optim_torch_goldens.json, written
// from torch 1.13 by scripts/gen_optim_torch_goldens.py: AdamW, RMSprop and Adagrad) with
// tide's fused steps: the same problem, gradient and options, on any device. Shared by the cpu
// trajectory tests and the device test.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "optim/adagrad_step.h"
#include "optim/adam_step.h"
#include "optim/rmsprop_step.h"
#include "optim/sgd_step.h"
#include "support/golden_json.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/autograd.h"
#include "tide/optim.h"
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

/// The value of option `key` in a golden's options, or `fallback` (torch's default) when the
/// golden leaves it out.
template <class T>
T option_or(const nlohmann::json& o, const char* key, T fallback) {
  return o.contains(key) ? o.at(key).get<T>() : fallback;
}

/// The golden's AdamW options (torch's keyword arguments; those left out keep the defaults).
inline optim::AdamWOptions adamw_options_from(const nlohmann::json& o) {
  const optim::AdamWOptions d;
  optim::AdamWOptions::betas_t betas = d.betas();
  if (o.contains("betas")) betas = {o.at("betas").at(0).get<double>(), o.at("betas").at(1).get<double>()};
  return optim::AdamWOptions(option_or(o, "lr", d.lr()))
      .betas(betas)
      .eps(option_or(o, "eps", d.eps()))
      .weight_decay(option_or(o, "weight_decay", d.weight_decay()))
      .amsgrad(option_or(o, "amsgrad", d.amsgrad()))
      .maximize(option_or(o, "maximize", d.maximize()));
}

/// The golden's RMSprop options (torch's keyword arguments).
inline optim::RMSpropOptions rmsprop_options_from(const nlohmann::json& o) {
  const optim::RMSpropOptions d;
  return optim::RMSpropOptions(option_or(o, "lr", d.lr()))
      .alpha(option_or(o, "alpha", d.alpha()))
      .eps(option_or(o, "eps", d.eps()))
      .weight_decay(option_or(o, "weight_decay", d.weight_decay()))
      .momentum(option_or(o, "momentum", d.momentum()))
      .centered(option_or(o, "centered", d.centered()))
      .maximize(option_or(o, "maximize", d.maximize()));
}

/// The golden's Adagrad options (torch's keyword arguments).
inline optim::AdagradOptions adagrad_options_from(const nlohmann::json& o) {
  const optim::AdagradOptions d;
  return optim::AdagradOptions(option_or(o, "lr", d.lr()))
      .lr_decay(option_or(o, "lr_decay", d.lr_decay()))
      .weight_decay(option_or(o, "weight_decay", d.weight_decay()))
      .initial_accumulator_value(option_or(o, "initial_accumulator_value",
                                           d.initial_accumulator_value()))
      .eps(option_or(o, "eps", d.eps()))
      .maximize(option_or(o, "maximize", d.maximize()));
}

/// The golden's optimizer over the parameters `params`.
inline std::unique_ptr<optim::Optimizer> optimizer_from(const nlohmann::json& spec,
                                                        std::vector<Tensor> params) {
  const std::string kind = spec.at("optimizer").get<std::string>();
  const nlohmann::json& o = spec.at("options");
  if (kind == "sgd") return std::make_unique<optim::SGD>(std::move(params), sgd_options_from(o));
  if (kind == "adam") return std::make_unique<optim::Adam>(std::move(params), adam_options_from(o));
  if (kind == "adamw") return std::make_unique<optim::AdamW>(std::move(params), adamw_options_from(o));
  if (kind == "rmsprop") {
    return std::make_unique<optim::RMSprop>(std::move(params), rmsprop_options_from(o));
  }
  if (kind == "adagrad") {
    return std::make_unique<optim::Adagrad>(std::move(params), adagrad_options_from(o));
  }
  throw std::runtime_error("unknown optimizer in golden: " + kind);
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
  } else if (spec.at("optimizer") == "adam" || spec.at("optimizer") == "adamw") {
    const bool adamw = spec.at("optimizer") == "adamw";
    const bool amsgrad = spec.at("options").value("amsgrad", false);
    Tensor m = zeros_like(x), v = zeros_like(x);
    Tensor v_max = amsgrad ? zeros_like(x) : Tensor();
    for (size_t i = 0; i < steps; ++i) {
      const auto step = static_cast<int64_t>(i + 1);
      if (adamw) {
        optim::detail::adamw_step_(x, least_squares_grad(a, x, b), m, v, v_max, step,
                                   adamw_options_from(spec.at("options")));
      } else {
        optim::detail::adam_step_(x, least_squares_grad(a, x, b), m, v, v_max, step,
                                  adam_options_from(spec.at("options")));
      }
      trajectory.push_back(x.clone());
    }
  } else if (spec.at("optimizer") == "rmsprop") {
    const optim::RMSpropOptions options = rmsprop_options_from(spec.at("options"));
    Tensor square_avg = zeros_like(x), grad_avg = zeros_like(x), buf = zeros_like(x);
    for (size_t i = 0; i < steps; ++i) {
      optim::detail::rmsprop_step_(x, least_squares_grad(a, x, b), square_avg, grad_avg, buf,
                                   options);
      trajectory.push_back(x.clone());
    }
  } else {
    const optim::AdagradOptions options = adagrad_options_from(spec.at("options"));
    Tensor sum = full_like(x, options.initial_accumulator_value());
    for (size_t i = 0; i < steps; ++i) {
      optim::detail::adagrad_step_(x, least_squares_grad(a, x, b), sum,
                                   static_cast<int64_t>(i + 1), options);
      trajectory.push_back(x.clone());
    }
  }
  return trajectory;
}

/// One training-loop step as the golden's generator took it: zero_grad, the loss
/// 0.5 * (A X - B).pow(2).sum() through autograd, backward, step.
inline void train_step(optim::Optimizer& opt, const Tensor& a, const Tensor& x, const Tensor& b) {
  opt.zero_grad();
  const Tensor loss = (a.matmul(x) - b).pow(2).sum() * 0.5;
  loss.backward();
  opt.step();
}

/// The same trajectory as a training loop writes it, as the golden's generator did with
/// libtorch or torch: the golden's optimizer over the leaf X, train_step after train_step.
inline std::vector<Tensor> run_trajectory_with_optimizer(const Golden& golden, Device device) {
  const nlohmann::json& spec = golden.spec;
  const Tensor a = tensor_from_json(spec.at("A")).to(device);
  const Tensor b = tensor_from_json(spec.at("B")).to(device);
  Tensor x = tensor_from_json(spec.at("x0")).to(device).requires_grad_();
  const std::unique_ptr<optim::Optimizer> opt = optimizer_from(spec, {x});
  std::vector<Tensor> trajectory;
  for (size_t i = 0; i < spec.at("trajectory").size(); ++i) {
    train_step(*opt, a, x, b);
    trajectory.push_back(x.detach().clone());
  }
  return trajectory;
}

/// Close within the dtype's rounding over 10 steps: the two sides round the same operations
/// the same way, except where ATen's vectorized loops fuse a multiply-add and the matmul sums
/// in another order (Note [Fused optimizer arithmetic]).
inline ::testing::AssertionResult close_to_golden(const Tensor& got, const nlohmann::json& expected) {
  const Tensor want = tensor_from_json(expected);
  if (got.dtype() != want.dtype() || got.sizes() != want.sizes()) {
    return ::testing::AssertionFailure() << "dtype or shape differs: " << got.str();
  }
  const bool f64 = got.dtype() == kFloat64;
  const double rtol = f64 ? 1e-12 : 1e-5, atol = f64 ? 1e-14 : 1e-6;
  const std::vector<double> a = got.cpu().to(kFloat64).tolist<double>();
  const std::vector<double> e = want.to(kFloat64).tolist<double>();
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(std::abs(a[i] - e[i]) <= atol + rtol * std::abs(e[i]))) {
      return ::testing::AssertionFailure() << "element " << i << " is " << a[i]
                                           << ", the golden has " << e[i];
    }
  }
  return ::testing::AssertionSuccess();
}

/// Every step of `got` close to the golden's trajectory, each failure naming its step.
inline void expect_golden_trajectory(const std::vector<Tensor>& got, const Golden& golden) {
  const nlohmann::json& expected = golden.spec.at("trajectory");
  ASSERT_EQ(got.size(), expected.size());
  for (size_t step = 0; step < got.size(); ++step) {
    EXPECT_TRUE(close_to_golden(got[step], expected[step])) << "after step " << step + 1;
  }
}

}  // namespace tide::test
