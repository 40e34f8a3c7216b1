// Writes libtorch's optimizer trajectories as goldens for tide's fused SGD and Adam steps
// (tests/optim/optim_trajectory_test.cpp, tests/device/fused_optim_test.cpp).
//
// The problem: minimize 0.5 * ||A X - B||^2 (Frobenius) over the 4x3 matrix X from X0, whose
// gradient A^T (A X - B) tide's tests compute with tide ops. libtorch computes it by autograd
// and steps with its own torch::optim::SGD / Adam, 10 steps per case, in float32 and float64;
// each golden holds the problem, the options (every field, libtorch's names) and X after
// every step. A, B and X0 are multiples of 1/8, exact in both dtypes. Usage:
//   gen_optim_goldens OUT.json
// (scripts/gen_optim_goldens builds this program against Debian's libtorch-dev and runs it.)

#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

constexpr int kSteps = 10;

torch::Tensor matrix(int64_t rows, int64_t cols, const std::vector<double>& values) {
  return torch::tensor(values, torch::kFloat64).reshape({rows, cols});
}

// The problem, fixed once: A is well conditioned enough that lr 0.05 descends steadily.
const std::vector<double> kA = {1.0,   0.5,  -0.25, 0.75,  -0.5,  1.25, 0.375, 0.0,
                                0.25,  -0.75, 1.5,  0.125, 0.625, 0.0,  -0.375, 1.0,
                                -0.125, 0.25, 0.5,  -0.875};
const std::vector<double> kB = {1.0,  -0.5, 0.25, 0.0,   0.75, -1.25, 0.5,  0.125,
                                -0.75, 1.5, -0.25, 0.375, 0.25, 0.625, -1.0};
const std::vector<double> kX0 = {0.5, -0.25, 0.125, -0.75, 1.0,  0.375,
                                 0.0, 0.625, -0.5,  0.25,  -0.125, 0.875};

std::string dtype_name(torch::ScalarType t) { return t == torch::kFloat32 ? "float32" : "float64"; }

/// A tensor as the goldens store it (tests/support/golden_json.h): {dtype, shape, values}.
json tensor_json(const torch::Tensor& t) {
  const torch::Tensor d = t.detach().to(torch::kFloat64).contiguous();
  std::vector<double> values(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
  return {{"dtype", dtype_name(t.scalar_type())}, {"shape", t.sizes().vec()}, {"values", values}};
}

struct Case {
  std::string name;
  std::string optimizer;  // "sgd" or "adam"
  json options;           // every field, libtorch's names
};

std::vector<Case> cases() {
  auto sgd = [](double lr, double momentum, double dampening, double weight_decay,
                bool nesterov) {
    return json{{"lr", lr},
                {"momentum", momentum},
                {"dampening", dampening},
                {"weight_decay", weight_decay},
                {"nesterov", nesterov}};
  };
  auto adam = [](double lr, double beta1, double beta2, double eps, double weight_decay,
                 bool amsgrad) {
    return json{{"lr", lr},
                {"betas", {beta1, beta2}},
                {"eps", eps},
                {"weight_decay", weight_decay},
                {"amsgrad", amsgrad}};
  };
  return {
      {"sgd_plain", "sgd", sgd(0.05, 0, 0, 0, false)},
      {"sgd_momentum", "sgd", sgd(0.05, 0.9, 0, 0, false)},
      {"sgd_dampening", "sgd", sgd(0.05, 0.9, 0.5, 0, false)},
      {"sgd_weight_decay", "sgd", sgd(0.05, 0, 0, 0.1, false)},
      {"sgd_nesterov", "sgd", sgd(0.05, 0.9, 0, 0, true)},
      {"sgd_momentum_weight_decay_nesterov", "sgd", sgd(0.03, 0.8, 0, 0.05, true)},
      {"adam_plain", "adam", adam(0.1, 0.9, 0.999, 1e-8, 0, false)},
      {"adam_weight_decay", "adam", adam(0.1, 0.9, 0.999, 1e-8, 0.1, false)},
      // beta2 = 0.9 lets exp_avg_sq fall within 10 steps, so the running maximum matters.
      {"adam_amsgrad", "adam", adam(0.1, 0.9, 0.9, 1e-8, 0, true)},
      {"adam_betas_eps", "adam", adam(0.05, 0.8, 0.99, 1e-3, 0, false)},
      {"adam_amsgrad_weight_decay", "adam", adam(0.1, 0.85, 0.9, 1e-6, 0.05, true)},
  };
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const Case& c, torch::Tensor x) {
  const json& o = c.options;
  if (c.optimizer == "sgd") {
    return std::make_unique<torch::optim::SGD>(
        std::vector<torch::Tensor>{x}, torch::optim::SGDOptions(o["lr"].get<double>())
                                           .momentum(o["momentum"].get<double>())
                                           .dampening(o["dampening"].get<double>())
                                           .weight_decay(o["weight_decay"].get<double>())
                                           .nesterov(o["nesterov"].get<bool>()));
  }
  return std::make_unique<torch::optim::Adam>(
      std::vector<torch::Tensor>{x},
      torch::optim::AdamOptions(o["lr"].get<double>())
          .betas(std::make_tuple(o["betas"][0].get<double>(), o["betas"][1].get<double>()))
          .eps(o["eps"].get<double>())
          .weight_decay(o["weight_decay"].get<double>())
          .amsgrad(o["amsgrad"].get<bool>()));
}

json run(const Case& c, torch::ScalarType dtype) {
  const torch::Tensor a = matrix(5, 4, kA).to(dtype);
  const torch::Tensor b = matrix(5, 3, kB).to(dtype);
  torch::Tensor x = matrix(4, 3, kX0).to(dtype).clone().requires_grad_(true);
  const json x0 = tensor_json(x);
  auto optimizer = make_optimizer(c, x);
  json trajectory = json::array();
  for (int step = 0; step < kSteps; ++step) {
    optimizer->zero_grad();
    const torch::Tensor loss = 0.5 * (a.mm(x) - b).pow(2).sum();
    loss.backward();
    optimizer->step();
    trajectory.push_back(tensor_json(x));
  }
  return {{"name", c.name + "_" + dtype_name(dtype)},
          {"optimizer", c.optimizer},
          {"options", c.options},
          {"A", tensor_json(a)},
          {"B", tensor_json(b)},
          {"x0", x0},
          {"trajectory", trajectory}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_optim_goldens OUT.json\n");
    return 2;
  }
  torch::set_num_threads(1);  // one summation order for mm, run to run
  json goldens = json::array();
  for (torch::ScalarType dtype : {torch::kFloat32, torch::kFloat64}) {
    for (const Case& c : cases()) goldens.push_back(run(c, dtype));
  }
  std::ofstream out(argv[1]);
  out << goldens.dump() << "\n";
  std::fprintf(stderr, "gen_optim_goldens: %zu goldens from libtorch %s written to %s\n",
               goldens.size(), GEN_TORCH_VERSION, argv[1]);
  return out ? 0 : 1;
}
