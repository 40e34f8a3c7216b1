// Random numbers: the per-device generators, rng state, rand/randn/randint and the in-place
// normal_/uniform_. Which Philox words become which element is Note [Philox offsets]
// (include/tide/random.h) and Note [Random transforms] (src/kernels/distributions.h).

#include "tide/random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

#include "core/philox.h"
#include "kernels/cpu/random_kernels.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/plain_front_ends.h"
#include "tensor/generator.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide {
namespace detail {

void Generator::set_seed(uint64_t seed) { set_state(seed, 0); }

void Generator::set_state(uint64_t seed, uint64_t offset) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  offset_ = offset;
}

uint64_t Generator::seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seed_;
}

uint64_t Generator::offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return offset_;
}

PhiloxStart Generator::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return PhiloxStart{seed_, offset_};
}

PhiloxStart Generator::reserve(uint64_t blocks) {
  std::lock_guard<std::mutex> lock(mutex_);
  PhiloxStart start{seed_, offset_};
  offset_ += blocks;
  return start;
}

namespace {

struct GeneratorRegistry {
  std::mutex mutex;
  uint64_t seed = kDefaultRngSeed;  // for generators created from now on
  std::unordered_map<Device, std::unique_ptr<Generator>> generators;
};

// Leaked on purpose: generators may be used from other static destructors.
GeneratorRegistry& registry() {
  static auto* r = new GeneratorRegistry;
  return *r;
}

}  // namespace

Generator& default_generator(Device device) {
  Device key = device.is_cpu() ? Device(kCPU) : device;
  TIDE_INTERNAL_ASSERT(key.is_cpu() || key.has_index(), "default_generator needs a concrete cuda device");
  GeneratorRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto& slot = r.generators[key];
  if (!slot) slot = std::make_unique<Generator>(r.seed);
  return *slot;
}

void seed_all_generators(uint64_t seed) {
  GeneratorRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.seed = seed;
  for (auto& entry : r.generators) entry.second->set_seed(seed);
}

}  // namespace detail

void manual_seed(uint64_t seed) { detail::seed_all_generators(seed); }

uint64_t initial_seed() { return detail::default_generator(Device(kCPU)).seed(); }

std::vector<uint8_t> get_rng_state() {
  const detail::PhiloxStart s = detail::default_generator(Device(kCPU)).state();
  const uint64_t words[2] = {s.seed, s.offset};
  std::vector<uint8_t> state(16);
  for (int w = 0; w < 2; ++w) {
    for (int b = 0; b < 8; ++b) state[w * 8 + b] = static_cast<uint8_t>(words[w] >> (8 * b));
  }
  return state;
}

void set_rng_state(const std::vector<uint8_t>& state) {
  TIDE_CHECK(state.size() == 16, "[set_rng_state] expected a state of 16 bytes (seed, offset), as "
             "get_rng_state returns, but got ", state.size(), " bytes");
  uint64_t words[2] = {0, 0};
  for (int w = 0; w < 2; ++w) {
    for (int b = 0; b < 8; ++b) words[w] |= static_cast<uint64_t>(state[w * 8 + b]) << (8 * b);
  }
  detail::default_generator(Device(kCPU)).set_state(words[0], words[1]);
}

namespace {

using detail::PhiloxStart;

/// Reserves `blocks` of self's device generator on the host (Note [Philox offsets]: the offset
/// advances at the call, whatever the device) and runs the stub's kernel on self — inline on
/// cpu, on the device's current stream on cuda — or on a contiguous temporary that is then
/// copied into self when self is not contiguous.
template <class... Params, class... Args>
void generate(const Tensor& self, int64_t blocks, const char* where,
              const kernels::KernelStub<void(const Tensor&, PhiloxStart, Params...)>& stub,
              const Args&... args) {
  if (self.numel() == 0) return;
  PhiloxStart start =
      detail::default_generator(self.device()).reserve(static_cast<uint64_t>(blocks));
  Tensor target = self.is_contiguous()
                      ? self
                      : detail::make_empty(self.shape(), self.dtype(), self.device());
  detail::run_kernel(self.device(), where, stub, target, start, args...);
  if (!target.is_same(self)) self.copy_(target);
}

void check_floating(const Tensor& self, const char* where) {
  TIDE_CHECK(self.defined(), "[", where, "] expected a defined tensor but got an undefined one");
  TIDE_CHECK(self.is_floating_point(), "[", where, "] expected a floating point tensor, but got ",
             name(self.dtype()), "; random floats need float16, bfloat16, float32 or float64 "
             "(use randint for integers)");
}

}  // namespace

namespace detail {

// The plain front ends of the op table's random fills (src/ops/ops.yaml: fills).
Tensor& plain_uniform_(Tensor& self, double from, double to) {
  if (self.defined()) self.storage().bump_version();
  check_floating(self, "Tensor::uniform_");
  TIDE_CHECK(std::isfinite(from) && std::isfinite(to), "[Tensor::uniform_] expects finite bounds, "
             "but found from=", from, ", to=", to);
  TIDE_CHECK(from <= to, "[Tensor::uniform_] uniform_ expects to return a [from, to) range, but "
             "found from=", from, " > to=", to);
  generate(self, kernels::uniform_blocks(self.numel()), "uniform_", kernels::uniform_stub, from,
           to);
  return self;
}

Tensor& plain_normal_(Tensor& self, double mean, double std) {
  if (self.defined()) self.storage().bump_version();
  check_floating(self, "Tensor::normal_");
  TIDE_CHECK(std >= 0.0, "[Tensor::normal_] normal expects std >= 0.0, but found std ", std);
  generate(self, kernels::uniform_blocks(self.numel()), "normal_", kernels::normal_stub, mean,
           std);
  return self;
}

}  // namespace detail

Tensor rand(std::vector<int64_t> sizes, TensorOptions options) {
  if (options.requires_grad())
    return rand(std::move(sizes), options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  TIDE_CHECK(!options.has_dtype() || is_floating_point(options.dtype()), "[rand] expected a "
             "floating point dtype, but got ", name(options.dtype()), "; use randint for integers");
  Tensor t = detail::empty_with(DimVector(sizes), options, options.dtype(), "rand");
  t.uniform_(0.0, 1.0);
  return t;
}

Tensor randn(std::vector<int64_t> sizes, TensorOptions options) {
  if (options.requires_grad())
    return randn(std::move(sizes), options.requires_grad(false))
        .requires_grad_();  // a leaf, made after its values
  TIDE_CHECK(!options.has_dtype() || is_floating_point(options.dtype()), "[randn] expected a "
             "floating point dtype, but got ", name(options.dtype()));
  Tensor t = detail::empty_with(DimVector(sizes), options, options.dtype(), "randn");
  t.normal_(0.0, 1.0);
  return t;
}

Tensor randint(int64_t low, int64_t high, std::vector<int64_t> sizes, TensorOptions options) {
  if (options.requires_grad())
    return randint(low, high, std::move(sizes), options.requires_grad(false))
        .requires_grad_();  // raises as torch: integer tensors cannot require grad
  TIDE_CHECK(low < high, "[randint] random_ expects 'from' to be less than 'to', but got from=", low,
             " >= to=", high);
  Tensor t = detail::empty_with(DimVector(sizes), options,
                                options.has_dtype() ? options.dtype() : kInt64, "randint");
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      // Every value in [low, high) must fit the dtype (torch's check_from_to_in_range).
      TIDE_CHECK(low >= static_cast<int64_t>(std::numeric_limits<T>::lowest()) &&
                     high - 1 <= static_cast<int64_t>(std::numeric_limits<T>::max()),
                 "[randint] the range [", low, ", ", high, ") is out of bounds for ", name(t.dtype()),
                 "; choose bounds the dtype can hold or a wider dtype");
    }
  });
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  generate(t, kernels::randint_blocks(t.numel(), range), "randint", kernels::randint_stub, low,
           range);
  return t;
}

}  // namespace tide
