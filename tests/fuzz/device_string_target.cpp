// tide::Device(std::string) accepts exactly "cpu", "cpu:N", "cuda", "cuda:N" (N a decimal
// index without leading zeros that a Device can hold): what it accepts it prints back as
// the input, and everything else raises tide::Error.

#include <functional>
#include <optional>

#include "fuzz_target.h"
#include "tide/device.h"

namespace tide::fuzz {

void device_string(const uint8_t* data, size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  std::optional<Device> parsed;
  if (!accepted([&] { parsed.emplace(spec); })) return;
  const Device& d = *parsed;
  if (d.str() != spec) fail("Device('", spec, "') prints as '", d.str(), "'");
  if (d.index() < -1) fail("Device('", spec, "') has index ", d.index());
  if (d.has_index() != (spec.find(':') != std::string::npos))
    fail("Device('", spec, "') has_index() is ", d.has_index());
  const Device again(d.str());
  if (again != d || std::hash<Device>()(again) != std::hash<Device>()(d))
    fail("Device('", spec, "') does not round-trip through str()");
  if (!accepted([&] { Device(d.type(), d.index()); }))
    fail("Device('", spec, "') was parsed but Device(type, ", d.index(), ") refuses it");
}

}  // namespace tide::fuzz
