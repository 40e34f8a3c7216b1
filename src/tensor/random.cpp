// Random numbers: the per-device generators, rng state, rand/randn/randint and the in-place
// normal_/uniform_/random_, each with or without a tide::Generator. Which Philox words become
// which element is Note [Philox offsets] (include/tide/random.h) and Note [Random transforms]
// (src/kernels/distributions.h).

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
#include "ops/op_entry.h"
#include "ops/plain_front_ends.h"
#include "tensor/generator.h"
#include "tensor/generator_handle.h"
#include "tensor/random_fills.h"
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
  return detail::state_bytes(detail::default_generator(Device(kCPU)).state());
}

void set_rng_state(const std::vector<uint8_t>& state) {
  TIDE_CHECK(state.size() == 16, "[set_rng_state] expected a state of 16 bytes (seed, offset), as "
             "get_rng_state returns, but got ", state.size(), " bytes");
  const detail::PhiloxStart s = detail::state_from_bytes(state.data());
  detail::default_generator(Device(kCPU)).set_state(s.seed, s.offset);
}

namespace {

using detail::PhiloxStart;

/// Reserves `blocks` of `generator` on the host (Note [Philox offsets]: the offset advances at
/// the call, whatever the device) and runs the stub's kernel on self — inline on cpu, on the
/// device's current stream on cuda — or on a contiguous temporary that is then copied into
/// self when self is not contiguous.
template <class... Params, class... Args>
void generate(const Tensor& self, detail::Generator& generator, int64_t blocks,
              const char* where,
              const kernels::KernelStub<void(const Tensor&, PhiloxStart, Params...)>& stub,
              const Args&... args) {
  if (self.numel() == 0) return;
  PhiloxStart start = generator.reserve(static_cast<uint64_t>(blocks));
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

/// Raises unless every integer of [low, high] fits t's dtype when it is integral (torch's
/// check_from_to_in_range). (high + 1 in the message cannot overflow: int64 always fits.)
void check_fits(const Tensor& t, int64_t low, int64_t high, const char* where) {
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      TIDE_CHECK(low >= static_cast<int64_t>(std::numeric_limits<T>::lowest()) &&
                     high <= static_cast<int64_t>(std::numeric_limits<T>::max()),
                 "[", where, "] the range [", low, ", ", high + 1, ") is out of bounds for ",
                 name(t.dtype()), "; choose bounds the dtype can hold or a wider dtype");
    }
  });
}

/// Integers in [low, low + range) into t, of any dtype.
void draw_integers(const Tensor& t, int64_t low, uint64_t range,
                   const std::optional<Generator>& generator, const char* where) {
  detail::Generator& g = detail::generator_for(generator, t.device(), where);
  generate(t, g, kernels::randint_blocks(t.numel(), range), where, kernels::randint_stub, low,
           range);
}

/// Integers in [low, high) into t.
void fill_randint(const Tensor& t, int64_t low, int64_t high,
                  const std::optional<Generator>& generator, const char* where) {
  TIDE_CHECK(low < high, "[", where, "] random_ expects 'from' to be less than 'to', but got "
             "from=", low, " >= to=", high);
  check_fits(t, low, high - 1, where);
  draw_integers(t, low, static_cast<uint64_t>(high) - static_cast<uint64_t>(low), generator,
                where);
}

}  // namespace

namespace detail {

// The plain front ends of the op table's random fills (src/ops/ops.yaml: fills) draw from the
// default generator; the forms with a generator are below them.
Tensor& plain_uniform_(Tensor& self, double from, double to) {
  return uniform_with(self, from, to, std::nullopt);
}

Tensor& plain_normal_(Tensor& self, double mean, double std) {
  return normal_with(self, mean, std, std::nullopt);
}

Tensor& uniform_with(Tensor& self, double from, double to,
                     const std::optional<tide::Generator>& generator) {
  if (self.defined()) self.storage().bump_version();
  check_floating(self, "Tensor::uniform_");
  TIDE_CHECK(std::isfinite(from) && std::isfinite(to), "[Tensor::uniform_] expects finite bounds, "
             "but found from=", from, ", to=", to);
  TIDE_CHECK(from <= to, "[Tensor::uniform_] uniform_ expects to return a [from, to) range, but "
             "found from=", from, " > to=", to);
  Generator& g = generator_for(generator, self.device(), "Tensor::uniform_");
  generate(self, g, kernels::uniform_blocks(self.numel()), "uniform_", kernels::uniform_stub,
           from, to);
  return self;
}

Tensor& normal_with(Tensor& self, double mean, double std,
                    const std::optional<tide::Generator>& generator) {
  if (self.defined()) self.storage().bump_version();
  check_floating(self, "Tensor::normal_");
  TIDE_CHECK(std >= 0.0, "[Tensor::normal_] normal expects std >= 0.0, but found std ", std);
  Generator& g = generator_for(generator, self.device(), "Tensor::normal_");
  generate(self, g, kernels::uniform_blocks(self.numel()), "normal_", kernels::normal_stub, mean,
           std);
  return self;
}

}  // namespace detail

Tensor rand(std::vector<int64_t> sizes, TensorOptions options) {
  return rand(std::move(sizes), std::nullopt, options);
}

Tensor rand(std::vector<int64_t> sizes, std::optional<Generator> generator,
            TensorOptions options) {
  TIDE_CHECK(!options.has_dtype() || is_floating_point(options.dtype()), "[rand] expected a "
             "floating point dtype, but got ", name(options.dtype()), "; use randint for integers");
  Tensor t = detail::empty_with(DimVector(sizes), options, options.dtype(), "rand");
  generate(t, detail::generator_for(generator, t.device(), "rand"),
           kernels::uniform_blocks(t.numel()), "rand", kernels::uniform_stub, 0.0, 1.0);
  return options.requires_grad() ? t.requires_grad_() : t;  // a leaf, made after its values
}

Tensor randn(std::vector<int64_t> sizes, TensorOptions options) {
  return randn(std::move(sizes), std::nullopt, options);
}

Tensor randn(std::vector<int64_t> sizes, std::optional<Generator> generator,
             TensorOptions options) {
  TIDE_CHECK(!options.has_dtype() || is_floating_point(options.dtype()), "[randn] expected a "
             "floating point dtype, but got ", name(options.dtype()));
  Tensor t = detail::empty_with(DimVector(sizes), options, options.dtype(), "randn");
  generate(t, detail::generator_for(generator, t.device(), "randn"),
           kernels::uniform_blocks(t.numel()), "randn", kernels::normal_stub, 0.0, 1.0);
  return options.requires_grad() ? t.requires_grad_() : t;  // a leaf, made after its values
}

Tensor randint(int64_t low, int64_t high, std::vector<int64_t> sizes, TensorOptions options) {
  return randint(low, high, std::move(sizes), std::nullopt, options);
}

Tensor randint(int64_t low, int64_t high, std::vector<int64_t> sizes,
               std::optional<Generator> generator, TensorOptions options) {
  if (options.requires_grad())
    return randint(low, high, std::move(sizes), std::move(generator), options.requires_grad(false))
        .requires_grad_();  // raises as torch: integer tensors cannot require grad
  Tensor t = detail::empty_with(DimVector(sizes), options,
                                options.has_dtype() ? options.dtype() : kInt64, "randint");
  fill_randint(t, low, high, generator, "randint");
  return t;
}

namespace {

/// The largest value random_ draws without `to`: the dtype's largest integer, or for floating
/// dtypes the last of the consecutive integers they hold exactly (2^digits), as torch.
int64_t largest_random(Dtype dtype) {
  switch (dtype) {
    case kFloat16: return int64_t{1} << 11;
    case kBFloat16: return int64_t{1} << 8;
    case kFloat32: return int64_t{1} << 24;
    case kFloat64: return int64_t{1} << 53;
    default: break;
  }
  int64_t top = 0;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) top = static_cast<int64_t>(std::numeric_limits<T>::max());
  });
  return top;
}

}  // namespace

namespace detail {

namespace {

/// Runs draw(target) on self directly, or (autograd looks at self) on a fresh tensor that
/// copy_ then writes into self (Note in tensor/random_fills.h).
template <class Draw>
Tensor& draw_into(Tensor& self, const char* where, const Draw& draw) {
  TIDE_CHECK(self.defined(), "[", where, "] expected a defined tensor but got an undefined one");
  if (!op_intercepted(self)) {
    draw(self);
    return self;
  }
  Tensor fresh = make_empty(self.shape(), self.dtype(), self.device(), false, where);
  draw(fresh);
  return self.copy_(fresh);
}

}  // namespace

Tensor& uniform_from(Tensor& self, double from, double to,
                     const std::optional<tide::Generator>& generator) {
  if (!generator) return self.uniform_(from, to);
  return draw_into(self, "Tensor::uniform_",
                   [&](Tensor& t) { uniform_with(t, from, to, generator); });
}

Tensor& normal_from(Tensor& self, double mean, double std,
                    const std::optional<tide::Generator>& generator) {
  if (!generator) return self.normal_(mean, std);
  return draw_into(self, "Tensor::normal_",
                   [&](Tensor& t) { normal_with(t, mean, std, generator); });
}

Tensor& random_from(Tensor& self, int64_t from, std::optional<int64_t> to,
                    const std::optional<tide::Generator>& generator) {
  const char* where = "Tensor::random_";
  return draw_into(self, where, [&](Tensor& t) {
    t.storage().bump_version();
    if (to) {
      fill_randint(t, from, *to, generator, where);
      return;
    }
    const int64_t top = largest_random(t.dtype());
    TIDE_CHECK(from <= top, "[", where, "] random_ expects 'from' casted to dtype to be less than "
               "or equal to 'to_inc' casted to dtype, but got from=", from, " > to_inc=", top,
               "; pass a smaller from or a wider dtype");
    check_fits(t, from, top, where);
    // [from, top]: top included, unless that takes a 2^64 range (int64's whole range), which
    // the kernel's 64-bit range cannot hold; then top alone is left out.
    const uint64_t span = static_cast<uint64_t>(top) - static_cast<uint64_t>(from);
    draw_integers(t, from, span == UINT64_MAX ? span : span + 1, generator, where);
  });
}

}  // namespace detail

Tensor& Tensor::normal_(double mean, double std, std::optional<Generator> generator) {
  return detail::normal_from(*this, mean, std, generator);
}

Tensor& Tensor::uniform_(double from, double to, std::optional<Generator> generator) {
  return detail::uniform_from(*this, from, to, generator);
}

Tensor& Tensor::random_(int64_t from, std::optional<int64_t> to,
                        std::optional<Generator> generator) {
  return detail::random_from(*this, from, to, generator);
}

Tensor& Tensor::random_(int64_t to, std::optional<Generator> generator) {
  return detail::random_from(*this, 0, to, generator);
}

Tensor& Tensor::random_(std::optional<Generator> generator) {
  return detail::random_from(*this, 0, std::nullopt, generator);
}

}  // namespace tide
