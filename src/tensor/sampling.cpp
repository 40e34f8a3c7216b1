// randperm, multinomial, normal with tensor parameters, bernoulli and poisson
// (tide/sampling.h), made of rand/randn draws on the parameters' device and tide ops: a sort
// of uniform keys (randperm), cumulative sums against uniforms (multinomial with replacement),
// weight / Exp(1) keys and topk (without: the Exponential-race form of sampling without
// replacement), and Knuth's product of uniforms, one round per unit of the largest count
// (poisson).

#include "tide/sampling.h"

#include <vector>

#include "ops/op_common.h"
#include "tensor/generator_handle.h"
#include "tensor/random_fills.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

bool any_true(const Tensor& t) { return t.any().item<bool>(); }

Tensor uniform_on(const std::vector<int64_t>& shape, Device device,
                  const std::optional<Generator>& generator) {
  return rand(shape, generator, tide::device(device).dtype(kFloat64));
}

Tensor normal_on(const std::vector<int64_t>& shape, const Tensor& like,
                 const std::optional<Generator>& generator) {
  return randn(shape, generator, tide::device(like.device()).dtype(like.dtype()));
}

}  // namespace

Tensor randperm(int64_t n, TensorOptions options) { return randperm(n, std::nullopt, options); }

Tensor randperm(int64_t n, std::optional<Generator> generator, TensorOptions options) {
  TIDE_CHECK(n >= 0, "[randperm] n must be non-negative, got", n);
  const Device device = detail::resolve_device(options.device(), "randperm");
  detail::check_generator_device(generator, device, "randperm");
  const Tensor keys = rand({n}, generator, tide::device(device).dtype(kFloat64));
  const Tensor perm = keys.argsort();
  const Tensor out = options.has_dtype() ? perm.to(options.dtype()) : perm;
  return options.requires_grad() ? out.requires_grad_() : out;
}

Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement,
                   std::optional<Generator> generator) {
  detail::check_defined(self, "multinomial", "self");
  detail::check_generator_device(generator, self.device(), "multinomial");
  TIDE_CHECK(self.dim() == 1 || self.dim() == 2, "[multinomial] prob_dist must be 1 or 2 dim, "
             "found ", self.dim(), " dims");
  TIDE_CHECK(is_floating_point(self.dtype()), "[multinomial] multinomial only supports "
             "floating-point dtypes for input, found ", name(self.dtype()));
  TIDE_CHECK(num_samples > 0, "[multinomial] cannot sample n_sample <= 0 samples");
  const int64_t k = self.size(-1);
  TIDE_CHECK(replacement || num_samples <= k, "[multinomial] cannot sample n_sample > "
             "prob_dist.size(-1) samples without replacement");
  const Tensor p = self.reshape({-1, k}).to(kFloat64);
  TIDE_CHECK(!any_true(p.lt(0)) && p.isfinite().all().item<bool>(), "[multinomial] probability "
             "tensor contains either `inf`, `nan` or element < 0");
  const Tensor sums = p.sum(1, /*keepdim=*/true);
  TIDE_CHECK(!any_true(sums.eq(0)), "[multinomial] invalid multinomial distribution (sum of "
             "probabilities <= 0)");
  const int64_t rows = p.size(0);
  Tensor idx;
  if (replacement) {
    // The category whose cumulative range holds the draw: how many cumulative sums it passes,
    // kept within the last category of nonzero weight (rounding can leave cdf's end below 1).
    const Tensor cdf = (p / sums).cumsum(1);
    const Tensor u = uniform_on({rows, num_samples, 1}, self.device(), generator);
    const Tensor positions = arange(k, tide::device(self.device()).dtype(kInt64)).unsqueeze(0);
    const Tensor last = p.gt(0).to(kInt64).mul(positions).amax({1}, /*keepdim=*/true);
    idx = u.ge(cdf.unsqueeze(1)).sum({2}).minimum(last);
  } else {
    TIDE_CHECK(!any_true(p.gt(0).sum({1}).lt(num_samples)), "[multinomial] invalid multinomial "
               "distribution (with replacement=False, not enough non-negative category to "
               "sample)");
    const Tensor u = uniform_on({rows, k}, self.device(), generator);
    const Tensor keys = p / (-(tide::log((-u) + 1)));  // weight / Exp(1)
    idx = std::get<1>(keys.topk(num_samples, 1));
  }
  std::vector<int64_t> shape = self.sizes();
  shape.back() = num_samples;
  return idx.reshape(shape);
}

Tensor normal(const Tensor& mean, const Tensor& std, std::optional<Generator> generator) {
  detail::check_defined(mean, "normal", "mean");
  detail::check_defined(std, "normal", "std");
  detail::check_generator_device(generator, mean.device(), "normal");
  TIDE_CHECK(!any_true(std.lt(0)), "[normal] normal expects all elements of std >= 0.0");
  const std::vector<Tensor> ms = broadcast_tensors({mean, std});
  return normal_on(ms[0].sizes(), mean, generator) * std + mean;
}

Tensor normal(const Tensor& mean, double std, std::optional<Generator> generator) {
  detail::check_defined(mean, "normal", "mean");
  detail::check_generator_device(generator, mean.device(), "normal");
  TIDE_CHECK(std >= 0, "[normal] normal expects std >= 0.0, but found std ", std);
  return normal_on(mean.sizes(), mean, generator) * std + mean;
}

Tensor normal(double mean, const Tensor& std, std::optional<Generator> generator) {
  detail::check_defined(std, "normal", "std");
  detail::check_generator_device(generator, std.device(), "normal");
  TIDE_CHECK(!any_true(std.lt(0)), "[normal] normal expects all elements of std >= 0.0");
  return normal_on(std.sizes(), std, generator) * std + mean;
}

Tensor normal(double mean, double std, std::vector<int64_t> sizes,
              std::optional<Generator> generator, TensorOptions options) {
  TIDE_CHECK(std >= 0, "[normal] normal expects std >= 0.0, but found std ", std);
  detail::check_generator_device(generator, detail::resolve_device(options.device(), "normal"),
                                 "normal");
  const bool grad = options.requires_grad();
  Tensor t = randn(std::move(sizes), generator, options.requires_grad(false));
  t = t * std + mean;
  return grad ? t.requires_grad_() : t;
}

Tensor bernoulli(const Tensor& self, std::optional<Generator> generator) {
  detail::check_defined(self, "bernoulli", "self");
  detail::check_generator_device(generator, self.device(), "bernoulli");
  TIDE_CHECK(!any_true(self.lt(0).logical_or(self.gt(1))), "[bernoulli] Expected p_in >= 0 && "
             "p_in <= 1 to be true, but got false; every probability must be in [0, 1]");
  return uniform_on(self.sizes(), self.device(), generator).lt(self).to(self.dtype());
}

Tensor bernoulli(const Tensor& self, double p, std::optional<Generator> generator) {
  detail::check_defined(self, "bernoulli", "self");
  detail::check_generator_device(generator, self.device(), "bernoulli");
  TIDE_CHECK(p >= 0 && p <= 1, "[bernoulli] bernoulli_ expects p to be in [0, 1], but got p=", p);
  return uniform_on(self.sizes(), self.device(), generator).lt(p).to(self.dtype());
}

Tensor poisson(const Tensor& self, std::optional<Generator> generator) {
  detail::check_defined(self, "poisson", "self");
  detail::check_generator_device(generator, self.device(), "poisson");
  TIDE_CHECK(!any_true(self.lt(0)), "[poisson] invalid Poisson rate, expected rate to be "
             "non-negative");
  // Knuth: the count of uniforms multiplied in before the product drops to exp(-rate).
  const Tensor limit = tide::exp(-self.to(kFloat64));
  Tensor product = uniform_on(self.sizes(), self.device(), generator);
  Tensor count = zeros(self.sizes(), tide::device(self.device()).dtype(kFloat64));
  for (Tensor going = product.gt(limit); any_true(going); going = product.gt(limit)) {
    count = count + going.to(kFloat64);
    product = product * tide::where(going, uniform_on(self.sizes(), self.device(), generator),
                                   Scalar(1.0));
  }
  return count.to(self.dtype());
}

namespace detail {

Tensor& bernoulli_from(Tensor& self, double p,
                       const std::optional<tide::Generator>& generator) {
  check_defined(self, "Tensor::bernoulli_", "self");
  return self.copy_(tide::bernoulli(self, p, generator));
}

Tensor& bernoulli_from(Tensor& self, const Tensor& p,
                       const std::optional<tide::Generator>& generator) {
  check_defined(self, "Tensor::bernoulli_", "self");
  check_defined(p, "Tensor::bernoulli_", "p");
  const Tensor probabilities = p.detach().to(self.device(), kFloat64).expand(self.sizes());
  return self.copy_(tide::bernoulli(probabilities, generator));
}

}  // namespace detail

Tensor& Tensor::bernoulli_(double p, std::optional<Generator> generator) {
  return detail::bernoulli_from(*this, p, generator);
}

Tensor& Tensor::bernoulli_(const Tensor& p, std::optional<Generator> generator) {
  return detail::bernoulli_from(*this, p, generator);
}

Tensor Tensor::bernoulli(std::optional<Generator> generator) const {
  return tide::bernoulli(*this, std::move(generator));
}

Tensor Tensor::bernoulli(double p, std::optional<Generator> generator) const {
  return tide::bernoulli(*this, p, std::move(generator));
}

Tensor Tensor::multinomial(int64_t num_samples, bool replacement,
                           std::optional<Generator> generator) const {
  return tide::multinomial(*this, num_samples, replacement, std::move(generator));
}

}  // namespace tide
