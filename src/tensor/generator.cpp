// tide::Generator (Note [Generators] in include/tide/generator.h): the handle over a Philox
// state, the default generators as handles to the per-device states that manual_seed seeds
// (src/tensor/random.cpp keeps those), and the check of a generator's device against an op's.

#include "tide/generator.h"

#include <cstring>
#include <random>

#include "tensor/generator_handle.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide {
namespace detail {

std::vector<uint8_t> state_bytes(PhiloxStart state) {
  const uint64_t words[2] = {state.seed, state.offset};
  std::vector<uint8_t> bytes(16);
  for (int w = 0; w < 2; ++w) {
    for (int b = 0; b < 8; ++b) bytes[w * 8 + b] = static_cast<uint8_t>(words[w] >> (8 * b));
  }
  return bytes;
}

PhiloxStart state_from_bytes(const uint8_t* bytes) {
  uint64_t words[2] = {0, 0};
  for (int w = 0; w < 2; ++w) {
    for (int b = 0; b < 8; ++b) words[w] |= static_cast<uint64_t>(bytes[w * 8 + b]) << (8 * b);
  }
  return PhiloxStart{words[0], words[1]};
}

Generator& generator_for(const std::optional<tide::Generator>& generator, Device device,
                         const char* where) {
  if (!generator) return detail::default_generator(device);
  check_generator_device(generator, device, where);
  return generator->state();
}

void check_generator_device(const std::optional<tide::Generator>& generator, Device device,
                            const char* where) {
  if (!generator) return;
  const Device own = generator->device();
  TIDE_CHECK(own.type() == device.type(), "[", where, "] Expected a '",
             device_type_name(device.type()), "' device type for generator but found '",
             device_type_name(own.type()), "': the draw is on ", device, " and the generator on ",
             own, "; make the generator with tide::Generator(Device(\"",
             device_type_name(device.type()), "\")) or pass none to draw from the device's "
             "default generator");
}

}  // namespace detail

Generator::Generator(Device device)
    : state_(std::make_shared<detail::Generator>()), device_(device) {}

Generator::Generator(std::shared_ptr<detail::Generator> state, Device device)
    : state_(std::move(state)), device_(device) {
  TIDE_INTERNAL_ASSERT(state_ != nullptr, "a Generator needs a state");
}

Generator& Generator::manual_seed(uint64_t seed) {
  state_->set_seed(seed);
  return *this;
}

uint64_t Generator::seed() {
  std::random_device entropy;
  const uint64_t seed = (static_cast<uint64_t>(entropy()) << 32) | entropy();
  state_->set_seed(seed);
  return seed;
}

uint64_t Generator::initial_seed() const { return state_->seed(); }

Tensor Generator::get_state() const {
  const std::vector<uint8_t> bytes = detail::state_bytes(state_->state());
  Tensor state = empty({16}, dtype(kUInt8).device(Device(kCPU)));
  std::memcpy(state.data_ptr<uint8_t>(), bytes.data(), bytes.size());
  return state;
}

Generator& Generator::set_state(const Tensor& new_state) {
  TIDE_CHECK(new_state.defined() && new_state.dtype() == kUInt8, "[Generator::set_state] expected "
             "a uint8 tensor (RNG state must be a torch.ByteTensor), found ",
             new_state.defined() ? name(new_state.dtype()) : "an undefined tensor",
             "; pass what get_state() returned");
  TIDE_CHECK(new_state.numel() == 16, "[Generator::set_state] expected the 16-byte state "
             "get_state() returns (seed, offset), found ", new_state.numel(), " bytes");
  const Tensor bytes = new_state.cpu().contiguous();
  const detail::PhiloxStart s = detail::state_from_bytes(bytes.data_ptr<uint8_t>());
  state_->set_state(s.seed, s.offset);
  return *this;
}

Device Generator::device() const { return device_; }

Generator default_generator(Device device) {
  const Device concrete =
      device.is_cpu() ? Device(kCPU) : detail::resolve_device(device, "default_generator");
  // The registry never destroys its states (src/tensor/random.cpp): a handle that owns nothing.
  detail::Generator& state = detail::default_generator(concrete);
  return Generator(std::shared_ptr<detail::Generator>(std::shared_ptr<void>(), &state), concrete);
}

}  // namespace tide
