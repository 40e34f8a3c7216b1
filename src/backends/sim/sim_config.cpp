#include "backends/sim/sim_config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

#include "tide/error.h"

namespace tide::sim {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Like torch's _strtoul: the leading (optionally signed) decimal number, or -1 if none.
int64_t leading_number(const std::string& s) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  size_t digits_begin = i;
  int64_t v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && v < (int64_t{1} << 40)) {
    v = v * 10 + (s[i++] - '0');
  }
  if (i == digits_begin) return -1;
  return negative ? -v : v;
}

}  // namespace

std::vector<int> parse_visible_devices(const char* value, int physical_devices) {
  std::vector<int> out;
  if (value == nullptr) {
    for (int i = 0; i < physical_devices; ++i) out.push_back(i);
    return out;
  }
  // First the list as written (torch's order of checks: a repeat empties it, a non-number
  // ends it), then the driver's cut at the first ordinal that names no device.
  const std::string all(value);
  std::vector<int64_t> listed;
  size_t start = 0;
  for (;;) {
    const size_t comma = all.find(',', start);
    const int64_t x = leading_number(
        trim(all.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (std::find(listed.begin(), listed.end(), x) != listed.end()) return {};
    if (x < 0) break;
    listed.push_back(x);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (int64_t x : listed) {
    if (x >= physical_devices) break;
    out.push_back(static_cast<int>(x));
  }
  return out;
}

int64_t parse_memory_size(const std::string& value) {
  const std::string v = trim(value);
  size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  const std::string number = v.substr(0, i), suffix = v.substr(i);
  int shift = -1;
  if (suffix.empty()) shift = 0;
  else if (suffix == "KiB") shift = 10;
  else if (suffix == "MiB") shift = 20;
  else if (suffix == "GiB") shift = 30;
  TIDE_CHECK(!number.empty() && shift >= 0 && number.size() <= 15,
             "[TIDE_SIM_MEMORY] expected a byte count or a whole number followed by KiB, MiB "
             "or GiB (for example 16GiB or 512MiB), but got '", value, "'");
  const int64_t n = std::stoll(number);
  TIDE_CHECK(n > 0 && n <= (std::numeric_limits<int64_t>::max() >> shift),
             "[TIDE_SIM_MEMORY] the capacity must be positive and below 8 EiB, but got '", value,
             "'");
  return n << shift;
}

int parse_device_count(const std::string& value) {
  const std::string v = trim(value);
  bool ok = !v.empty() && v.size() <= 4 &&
            std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  TIDE_CHECK(ok && std::stoi(v) <= 1024,
             "[TIDE_SIM_DEVICES] expected the number of simulated GPUs, a whole number from 0 "
             "to 1024, but got '", value, "'");
  return std::stoi(v);
}

std::optional<SimConfig> config_from_environment(std::optional<int> devices_override) {
  int physical = 0;
  if (devices_override) {
    physical = *devices_override;
  } else {
    const char* env = std::getenv("TIDE_SIM_DEVICES");
    if (env == nullptr) return std::nullopt;
    physical = parse_device_count(env);
  }
  SimConfig config;
  config.physical_devices = physical;
  config.visible = parse_visible_devices(std::getenv("CUDA_VISIBLE_DEVICES"), physical);
  if (const char* mem = std::getenv("TIDE_SIM_MEMORY")) config.capacity = parse_memory_size(mem);
  return config;
}

}  // namespace tide::sim
