#pragma once
// From a tide::Generator argument to the state a draw reserves its Philox blocks from (Note
// [Generators] in include/tide/generator.h), and the 16 bytes of a state.

#include <cstdint>
#include <optional>
#include <vector>

#include "tensor/generator.h"
#include "tide/device.h"
#include "tide/generator.h"

namespace tide::detail {

/// What a random op on `device` draws from: `generator` when given, after checking that it is
/// of device's type (check_generator_device), else device's default generator.
Generator& generator_for(const std::optional<tide::Generator>& generator, Device device,
                         const char* where);

/// Raises unless `generator` is none or of device's type (torch's check_generator: the type,
/// not the index); `where` names the op.
void check_generator_device(const std::optional<tide::Generator>& generator, Device device,
                            const char* where);

/// A state as 16 bytes (seed, then offset, little-endian) and back: get_rng_state's and
/// Generator::get_state's layout.
std::vector<uint8_t> state_bytes(PhiloxStart state);
PhiloxStart state_from_bytes(const uint8_t* bytes);

}  // namespace tide::detail
