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
#include "kernels/cpu/parallel.h"
#include "kernels/distributions.h"
#include "ops/dispatch.h"
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

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Calls f(block_index, words, first_element) for every Philox block of a draw, in parallel.
template <class F>
void for_each_block(int64_t blocks, PhiloxStart start, const F& f) {
  kernels::parallel_for(0, blocks, kernels::kGrainSize / 4, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      f(c, philox::block(start.seed, start.offset + static_cast<uint64_t>(c)));
    }
  });
}

template <class T>
void uniform_kernel(T* out, int64_t n, PhiloxStart start, double from, double to) {
  for_each_block(ceil_div(n, 4), start, [&](int64_t c, const philox::Words4& w) {
    const int64_t base = c * 4;
    const int lanes = static_cast<int>(std::min<int64_t>(4, n - base));
    for (int l = 0; l < lanes; ++l) out[base + l] = kernels::uniform_from_word<T>(w.w[l], from, to);
  });
}

template <class T>
void normal_kernel(T* out, int64_t n, PhiloxStart start, double mean, double std) {
  for_each_block(ceil_div(n, 4), start, [&](int64_t c, const philox::Words4& w) {
    const int64_t base = c * 4;
    for (int pair = 0; pair < 2; ++pair) {
      const int64_t i = base + 2 * pair;
      if (i >= n) break;
      double z0, z1;
      kernels::box_muller(w.w[2 * pair], w.w[2 * pair + 1], z0, z1);
      out[i] = kernels::convert<T>(mean + std * z0);
      if (i + 1 < n) out[i + 1] = kernels::convert<T>(mean + std * z1);
    }
  });
}

constexpr uint64_t kTwoPow32 = 1ull << 32;

/// Blocks a randint draw of n elements reserves (Note [Random transforms]).
int64_t randint_blocks(int64_t n, uint64_t range) {
  return range <= kTwoPow32 ? ceil_div(n, 4) : ceil_div(n, 2);
}

template <class T>
void randint_kernel(T* out, int64_t n, PhiloxStart start, int64_t low, uint64_t range) {
  auto store = [&](int64_t i, uint64_t v) {
    out[i] = kernels::convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + v));
  };
  if (range <= kTwoPow32) {
    for_each_block(ceil_div(n, 4), start, [&](int64_t c, const philox::Words4& w) {
      const int64_t base = c * 4;
      const int lanes = static_cast<int>(std::min<int64_t>(4, n - base));
      for (int l = 0; l < lanes; ++l) store(base + l, w.w[l] % range);
    });
  } else {
    for_each_block(ceil_div(n, 2), start, [&](int64_t c, const philox::Words4& w) {
      const int64_t base = c * 2;
      const int lanes = static_cast<int>(std::min<int64_t>(2, n - base));
      for (int l = 0; l < lanes; ++l) {
        uint64_t v = static_cast<uint64_t>(w.w[2 * l]) | (static_cast<uint64_t>(w.w[2 * l + 1]) << 32);
        store(base + l, v % range);
      }
    });
  }
}

/// Reserves `blocks` of self's device generator on the host (Note [Philox offsets]: the offset
/// advances at the call, whatever the device) and runs kernel(data, start) on self's memory —
/// inline on cpu, on the device's current stream on cuda — or on a contiguous temporary that
/// is then copied into self when self is not contiguous. The kernel captures by value.
template <class Kernel>
void generate(const Tensor& self, int64_t blocks, const char* where, Kernel kernel) {
  if (self.numel() == 0) return;
  PhiloxStart start =
      detail::default_generator(self.device()).reserve(static_cast<uint64_t>(blocks));
  Tensor target = self.is_contiguous()
                      ? self
                      : detail::make_empty(self.shape(), self.dtype(), self.device());
  detail::run_kernel(
      self.device(), where,
      [](const Kernel& k, const Tensor& t, const PhiloxStart& s) { k(t.raw_data(), s); }, kernel,
      target, start);
  if (!target.is_same(self)) self.copy_(target);
}

void check_floating(const Tensor& self, const char* where) {
  TIDE_CHECK(self.defined(), "[", where, "] expected a defined tensor but got an undefined one");
  TIDE_CHECK(self.is_floating_point(), "[", where, "] expected a floating point tensor, but got ",
             name(self.dtype()), "; random floats need float16, bfloat16, float32 or float64 "
             "(use randint for integers)");
}

}  // namespace

Tensor& Tensor::uniform_(double from, double to) {
  check_floating(*this, "Tensor::uniform_");
  TIDE_CHECK(std::isfinite(from) && std::isfinite(to), "[Tensor::uniform_] expects finite bounds, "
             "but found from=", from, ", to=", to);
  TIDE_CHECK(from <= to, "[Tensor::uniform_] uniform_ expects to return a [from, to) range, but "
             "found from=", from, " > to=", to);
  const int64_t n = numel();
  const Dtype dt = dtype();
  generate(*this, ceil_div(n, 4), "uniform_", [dt, n, from, to](void* data, PhiloxStart start) {
    dispatch_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (kernels::is_reduced_float<T>::value || std::is_floating_point_v<T>) {
        uniform_kernel(static_cast<T*>(data), n, start, from, to);
      }
    });
  });
  return *this;
}

Tensor& Tensor::normal_(double mean, double std) {
  check_floating(*this, "Tensor::normal_");
  TIDE_CHECK(std >= 0.0, "[Tensor::normal_] normal expects std >= 0.0, but found std ", std);
  const int64_t n = numel();
  const Dtype dt = dtype();
  generate(*this, ceil_div(n, 4), "normal_", [dt, n, mean, std](void* data, PhiloxStart start) {
    dispatch_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (kernels::is_reduced_float<T>::value || std::is_floating_point_v<T>) {
        normal_kernel(static_cast<T*>(data), n, start, mean, std);
      }
    });
  });
  return *this;
}

Tensor rand(std::vector<int64_t> sizes, TensorOptions options) {
  TIDE_CHECK(!options.has_dtype() || is_floating_point(options.dtype()), "[rand] expected a "
             "floating point dtype, but got ", name(options.dtype()), "; use randint for integers");
  Tensor t = empty(std::move(sizes), options);
  t.uniform_(0.0, 1.0);
  return t;
}

Tensor randn(std::vector<int64_t> sizes, TensorOptions options) {
  TIDE_CHECK(!options.has_dtype() || is_floating_point(options.dtype()), "[randn] expected a "
             "floating point dtype, but got ", name(options.dtype()));
  Tensor t = empty(std::move(sizes), options);
  t.normal_(0.0, 1.0);
  return t;
}

Tensor randint(int64_t low, int64_t high, std::vector<int64_t> sizes, TensorOptions options) {
  TIDE_CHECK(low < high, "[randint] random_ expects 'from' to be less than 'to', but got from=", low,
             " >= to=", high);
  Tensor t = empty(std::move(sizes), options.has_dtype() ? options : options.dtype(kInt64));
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
  const int64_t n = t.numel();
  const Dtype dt = t.dtype();
  generate(t, randint_blocks(n, range), "randint", [dt, n, low, range](void* data, PhiloxStart start) {
    dispatch_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      randint_kernel(static_cast<T*>(data), n, start, low, range);
    });
  });
  return t;
}

}  // namespace tide
