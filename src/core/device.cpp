#include "tide/device.h"

#include <cctype>

#include "tide/error.h"

namespace tide {

const char* device_type_name(DeviceType type) {
  switch (type) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::CUDA: return "cuda";
  }
  return "?";
}

namespace {

constexpr const char* kAcceptedForms =
    "expected 'cpu', 'cpu:N', 'cuda' or 'cuda:N' with N a decimal index without leading zeros "
    "(for example 'cuda:1')";

[[noreturn]] void bad_spec(const std::string& spec) {
  throw Error(detail::concat("[Device] invalid device string '", spec, "': ", kAcceptedForms));
}

// Parses a decimal index without sign or leading zeros; -1 if malformed.
int parse_index(const std::string& s) {
  if (s.empty() || s.size() > 6) return -1;
  if (s.size() > 1 && s[0] == '0') return -1;
  int v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

Device::Device(DeviceType type, int index) : type_(type), index_(static_cast<int16_t>(index)) {
  TIDE_CHECK(index >= -1 && index < 32768, "[Device] device index must be -1 (no index) or a ",
             "non-negative index, but got ", index, " for ", device_type_name(type));
}

Device::Device(const std::string& spec) : type_(kCPU), index_(-1) {
  auto colon = spec.find(':');
  std::string type = spec.substr(0, colon);
  if (type == "cpu") {
    type_ = kCPU;
  } else if (type == "cuda") {
    type_ = kCUDA;
  } else {
    bad_spec(spec);
  }
  if (colon != std::string::npos) {
    int idx = parse_index(spec.substr(colon + 1));
    if (idx < 0) bad_spec(spec);
    // parse_index reads up to 6 digits; a Device holds an int16_t index (as Device(type, index)).
    TIDE_CHECK(idx <= INT16_MAX, "[Device] invalid device string '", spec, "': the device index ", idx,
               " is too large, the largest is ", INT16_MAX);
    index_ = static_cast<int16_t>(idx);
  }
}

Device::Device(const char* spec) : Device(std::string(spec ? spec : "")) {}

std::string Device::str() const {
  std::string s(device_type_name(type_));
  if (has_index()) {
    s.push_back(':');
    s.append(std::to_string(index_));
  }
  return s;
}

std::ostream& operator<<(std::ostream& os, const Device& device) { return os << device.str(); }

}  // namespace tide
