#pragma once
// Random numbers: one default Philox4x32-10 stream per device (tide::default_generator),
// seeded together by manual_seed; an op given a tide::Generator draws from it instead
// (Note [Generators] in tide/generator.h).
// Note [Philox offsets]: element i of a draw uses counter (offset + i/4) and output word i%4;
// the offset advances on the host by ceil(n/4) per call. Numbers therefore depend only on
// the seed and the sequence of calls, never on how a device splits the work, so cpu,
// simulated and real GPUs produce identical values for the same seed.

#include <cstdint>
#include <vector>

namespace tide {

/// Seeds every device's generator (as torch.manual_seed).
void manual_seed(uint64_t seed);
/// The seed of the cpu generator.
uint64_t initial_seed();
/// The cpu generator's state: 16 bytes (seed, offset), as a uint8 vector.
std::vector<uint8_t> get_rng_state();
void set_rng_state(const std::vector<uint8_t>& state);

}  // namespace tide
