#pragma once
// Random sampling from tensors of parameters (torch's names and arguments): randperm,
// multinomial, normal with tensor mean or std, bernoulli and poisson. Each draws from the
// device's default generator (tide::manual_seed) with tide's uniform and normal draws.

#include <cstdint>

#include "tide/tensor.h"

namespace tide {

/// A random permutation of 0 .. n-1 (int64 unless options say otherwise).
Tensor randperm(int64_t n, TensorOptions options = {});

/// num_samples category numbers per row of self's non-negative weights (1-D or 2-D), with or
/// without replacement.
Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement = false);

/// Normal draws with elementwise mean and std (broadcast); differentiable in both.
Tensor normal(const Tensor& mean, const Tensor& std);
Tensor normal(const Tensor& mean, double std = 1.0);
Tensor normal(double mean, const Tensor& std);

/// 1 with probability self (in [0, 1]) and 0 otherwise, in self's dtype; p: one probability
/// for every element instead.
Tensor bernoulli(const Tensor& self);
Tensor bernoulli(const Tensor& self, double p);

/// Poisson draws of rate self (non-negative), in self's dtype.
Tensor poisson(const Tensor& self);

}  // namespace tide
