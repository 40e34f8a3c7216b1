#pragma once
// The activation modules beyond ReLU (torch.nn's names and defaults): each is its function in
// tide/ops.h as a module; PReLU holds its slopes as the parameter "weight".

#include <cstdint>
#include <string>

#include "tide/nn/module.h"

namespace tide::nn {

class GELU : public Cloneable<GELU> {
 public:
  /// approximate: "none" (exact, through erf) or "tanh".
  explicit GELU(std::string approximate = "none") : approximate(std::move(approximate)) {}
  Tensor forward(const Tensor& input) override;
  void reset() override {}
  std::string approximate;
};

class SiLU : public Cloneable<SiLU> {
 public:
  Tensor forward(const Tensor& input) override;
  void reset() override {}
};

class Mish : public Cloneable<Mish> {
 public:
  Tensor forward(const Tensor& input) override;
  void reset() override {}
};

class Tanh : public Cloneable<Tanh> {
 public:
  Tensor forward(const Tensor& input) override;
  void reset() override {}
};

class Sigmoid : public Cloneable<Sigmoid> {
 public:
  Tensor forward(const Tensor& input) override;
  void reset() override {}
};

class Softplus : public Cloneable<Softplus> {
 public:
  explicit Softplus(double beta = 1.0, double threshold = 20.0) : beta(beta), threshold(threshold) {}
  Tensor forward(const Tensor& input) override;
  void reset() override {}
  double beta, threshold;
};

class LeakyReLU : public Cloneable<LeakyReLU> {
 public:
  explicit LeakyReLU(double negative_slope = 0.01) : negative_slope(negative_slope) {}
  Tensor forward(const Tensor& input) override;
  void reset() override {}
  double negative_slope;
};

class ELU : public Cloneable<ELU> {
 public:
  explicit ELU(double alpha = 1.0) : alpha(alpha) {}
  Tensor forward(const Tensor& input) override;
  void reset() override {}
  double alpha;
};

class Hardtanh : public Cloneable<Hardtanh> {
 public:
  explicit Hardtanh(double min_val = -1.0, double max_val = 1.0);
  Tensor forward(const Tensor& input) override;
  void reset() override {}
  double min_val, max_val;
};

class PReLU : public Cloneable<PReLU> {
 public:
  /// num_parameters: 1 (one slope) or the input's channels (dim 1); each slope starts at init.
  explicit PReLU(int64_t num_parameters = 1, double init = 0.25);
  Tensor forward(const Tensor& input) override;
  void reset() override;
  int64_t num_parameters;
  double init;
  Tensor weight;
};

}  // namespace tide::nn
