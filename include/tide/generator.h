#pragma once
// Generator: a handle to one Philox4x32-10 stream, a (seed, offset) pair, as torch.Generator.
//
// Note [Generators]: every random op takes an optional generator (torch's `generator=`); none
// means the default generator of the op's device (tide::default_generator, the ones
// manual_seed seeds). A generator is not bound to one device's memory: its state is two
// integers on the host, and a draw reserves its Philox blocks there before any kernel runs
// (Note [Philox offsets] in tide/random.h). So the same generator state gives the same numbers
// on the cpu, simulated and real GPUs, a draw never goes through the cpu, and one generator may
// serve several devices of its type. As torch, an op checks the generator's device type only
// ("Expected a 'cuda' device type for generator but found 'cpu'"): torch's cuda generators
// serve any cuda device too. Copies of a Generator share the state (torch's at::Generator is a
// handle too); every operation on it holds the state's lock, so threads may share one.

#include <cstdint>
#include <memory>

#include "tide/device.h"

namespace tide {

class Tensor;

namespace detail {
class Generator;  // the (seed, offset) state and its lock: src/tensor/generator.h
}

class Generator {
 public:
  /// A new generator for `device`'s type, seeded with torch's default seed (67280421310721).
  explicit Generator(Device device = Device(kCPU));
  /// A handle to an existing state (default_generator's) for `device`.
  Generator(std::shared_ptr<detail::Generator> state, Device device);

  /// Seeds it and restarts its stream; returns *this, so that calls chain as torch's.
  Generator& manual_seed(uint64_t seed);
  /// Seeds it from std::random_device (non-deterministic, as torch) and returns the seed.
  uint64_t seed();
  /// The seed of the last manual_seed or seed().
  uint64_t initial_seed() const;
  /// The state as a cpu uint8 tensor of 16 bytes: seed, then offset, little-endian.
  Tensor get_state() const;
  /// Restores a state that get_state returned; returns *this.
  Generator& set_state(const Tensor& new_state);
  Device device() const;

  /// Whether both are handles to the same state.
  bool operator==(const Generator& other) const { return state_ == other.state_; }
  bool operator!=(const Generator& other) const { return state_ != other.state_; }

  detail::Generator& state() const { return *state_; }

 private:
  std::shared_ptr<detail::Generator> state_;
  Device device_;
};

/// The default generator of `device` (cpu, or a cuda device; a cuda device without an index
/// means the current one): what random ops draw from when given no generator. Seeded by
/// tide::manual_seed; torch.default_generator and torch.cuda.default_generators[i].
Generator default_generator(Device device = Device(kCPU));

}  // namespace tide
