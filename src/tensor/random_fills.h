#pragma once
// In-place random draws with a generator (Note [Generators] in include/tide/generator.h): what
// Tensor.uniform_/normal_/random_/bernoulli_(generator=) run. The *_from front ends take care
// of autograd: a tensor autograd looks at gets a fresh draw through copy_, which refuses a leaf
// that requires grad and ends a recorded tensor's history, as torch's in-place draws do; any
// other tensor is drawn into directly. The numbers are the same either way.

#include <cstdint>
#include <optional>

#include "tide/generator.h"
#include "tide/tensor.h"

namespace tide::detail {

Tensor& uniform_from(Tensor& self, double from, double to,
                     const std::optional<tide::Generator>& generator);
Tensor& normal_from(Tensor& self, double mean, double std,
                    const std::optional<tide::Generator>& generator);
/// Integers in [from, to); to none: up to the dtype's largest integer (2^digits of the mantissa
/// for floating dtypes), as torch's random_.
Tensor& random_from(Tensor& self, int64_t from, std::optional<int64_t> to,
                    const std::optional<tide::Generator>& generator);
/// 1 with probability p (one for all elements, or a tensor broadcast to self), else 0.
Tensor& bernoulli_from(Tensor& self, double p,
                       const std::optional<tide::Generator>& generator);
Tensor& bernoulli_from(Tensor& self, const Tensor& p,
                       const std::optional<tide::Generator>& generator);

/// The draws without autograd: into self directly (the op table's plain fills run these).
Tensor& uniform_with(Tensor& self, double from, double to,
                     const std::optional<tide::Generator>& generator);
Tensor& normal_with(Tensor& self, double mean, double std,
                    const std::optional<tide::Generator>& generator);

}  // namespace tide::detail
