#pragma once
// Random sampling from tensors of parameters (torch's names and arguments): randperm,
// multinomial, normal with tensor mean or std, bernoulli and poisson. Each draws from
// `generator`, or from the default generator of the parameters' device when none is given
// (Note [Generators] in tide/generator.h), with tide's uniform and normal draws.

#include <cstdint>
#include <optional>
#include <vector>

#include "tide/generator.h"
#include "tide/tensor.h"

namespace tide {

/// A random permutation of 0 .. n-1 (int64 unless options say otherwise).
Tensor randperm(int64_t n, TensorOptions options = {});
Tensor randperm(int64_t n, std::optional<Generator> generator, TensorOptions options = {});

/// num_samples category numbers per row of self's non-negative weights (1-D or 2-D), with or
/// without replacement.
Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement = false,
                   std::optional<Generator> generator = std::nullopt);

/// Normal draws with elementwise mean and std (broadcast); differentiable in both.
Tensor normal(const Tensor& mean, const Tensor& std,
              std::optional<Generator> generator = std::nullopt);
Tensor normal(const Tensor& mean, double std = 1.0,
              std::optional<Generator> generator = std::nullopt);
Tensor normal(double mean, const Tensor& std, std::optional<Generator> generator = std::nullopt);
/// Normal draws of one mean and std, of the given sizes (torch.normal(mean, std, size)).
Tensor normal(double mean, double std, std::vector<int64_t> sizes,
              std::optional<Generator> generator = std::nullopt, TensorOptions options = {});

/// 1 with probability self (in [0, 1]) and 0 otherwise, in self's dtype; p: one probability
/// for every element instead.
Tensor bernoulli(const Tensor& self, std::optional<Generator> generator = std::nullopt);
Tensor bernoulli(const Tensor& self, double p, std::optional<Generator> generator = std::nullopt);

/// Poisson draws of rate self (non-negative), in self's dtype.
Tensor poisson(const Tensor& self, std::optional<Generator> generator = std::nullopt);

}  // namespace tide
