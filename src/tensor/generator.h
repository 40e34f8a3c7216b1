#pragma once
// Generator: one device's Philox stream, a (seed, offset) pair. Kernels never advance it
// themselves: the host reserves a range of counters per draw (Note [Philox offsets] in
// include/tide/random.h), so numbers do not depend on how a device splits the work.

#include <cstdint>
#include <mutex>

#include "tide/device.h"

namespace tide::detail {

/// torch's default seed (c10::detail::default_rng_seed_val).
inline constexpr uint64_t kDefaultRngSeed = 67280421310721ull;

/// Where a draw starts: the key's seed and the first Philox block index.
struct PhiloxStart {
  uint64_t seed;
  uint64_t offset;
};

class Generator {
 public:
  explicit Generator(uint64_t seed = kDefaultRngSeed) : seed_(seed) {}
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  /// Sets the seed and restarts at block 0.
  void set_seed(uint64_t seed);
  void set_state(uint64_t seed, uint64_t offset);
  uint64_t seed() const;
  uint64_t offset() const;
  /// (seed, offset) read together, so a concurrent draw cannot split them.
  PhiloxStart state() const;
  /// Reserves `blocks` consecutive Philox blocks for one draw and returns where it starts.
  PhiloxStart reserve(uint64_t blocks);

 private:
  mutable std::mutex mutex_;
  uint64_t seed_;
  uint64_t offset_ = 0;
};

/// The generator of `device` (cpu, or a cuda device with an index), created on first use with
/// the seed of the last manual_seed (torch's default seed before any). The device layer calls
/// this for cuda devices; manual_seed reaches every generator created so far.
Generator& default_generator(Device device);

/// Seeds every generator created so far and every one created later (torch.manual_seed).
void seed_all_generators(uint64_t seed);

}  // namespace tide::detail
