#pragma once
// SimConfig: how many simulated GPUs exist, which are visible, and their capacity.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tide::sim {

struct SimConfig {
  int physical_devices = 0;
  /// Physical ordinals visible as cuda:0, cuda:1, ... (CUDA_VISIBLE_DEVICES order).
  std::vector<int> visible;
  /// Bytes each device can hand out.
  int64_t capacity = int64_t{16} << 30;
};

/// CUDA_VISIBLE_DEVICES as the driver reads it (torch's _parse_visible_devices): comma-
/// separated entries, each read like strtoul after trimming blanks ("1gpu" is 1); an entry
/// that is not a number, or names no physical device, ends the list; a repeated ordinal
/// makes the whole list empty; an empty string means no devices. nullptr: every device.
std::vector<int> parse_visible_devices(const char* value, int physical_devices);
/// TIDE_SIM_MEMORY: a byte count, or a number followed by KiB, MiB or GiB. Raises tide::Error.
int64_t parse_memory_size(const std::string& value);
/// TIDE_SIM_DEVICES: a non-negative integer. Raises tide::Error.
int parse_device_count(const std::string& value);

/// The configuration from TIDE_SIM_DEVICES (or `devices_override`), CUDA_VISIBLE_DEVICES and
/// TIDE_SIM_MEMORY; nullopt when simulation is not requested.
std::optional<SimConfig> config_from_environment(std::optional<int> devices_override);

}  // namespace tide::sim
