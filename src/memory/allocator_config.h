#pragma once
// AllocatorConfig: TIDE_CUDA_ALLOC_CONF, torch's "key:value,key:value" syntax.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace tide::memory {

struct AllocatorConfig {
  /// Blocks at least this large are never split (torch's max_split_size_mb; default: no limit).
  size_t max_split_size = std::numeric_limits<size_t>::max();
  /// 0: off; otherwise round large requests up to one of N divisions of their power-of-two
  /// interval (torch's roundup_power2_divisions).
  int roundup_power2_divisions = 0;
  /// 0: off; in (0, 1): with a memory fraction set, free cached blocks (oldest first) once
  /// reserved memory passes this share of the allowed memory (torch's behaviour).
  double garbage_collection_threshold = 0.0;
  /// torch's bracket form "roundup_power2_divisions:[256:1,512:2,>:8]": divisions per
  /// power-of-two size interval, index k for sizes in [2^(20+k), 2^(21+k)) bytes (index 0
  /// also covers sizes below 1 MiB, index 15 everything from 32 GiB). Consulted only when
  /// `roundup_power2_divisions` is 0.
  static constexpr size_t kRoundupIntervals = 16;
  std::array<int, kRoundupIntervals> roundup_power2_division_table{};

  /// The divisions that apply to a request of `size` bytes (0 or 1: plain 512 B rounding).
  int roundup_divisions_for(size_t size) const;
  /// The spec that parse() turns into this config ("" for the defaults).
  std::string to_string() const;

  /// Parses `spec` ("max_split_size_mb:128,roundup_power2_divisions:4"); an unknown key or a
  /// bad value raises tide::Error naming the valid keys. Empty means defaults.
  static AllocatorConfig parse(const std::string& spec);
  /// From the TIDE_CUDA_ALLOC_CONF environment variable (read at first use).
  static AllocatorConfig from_env();
};

}  // namespace tide::memory
