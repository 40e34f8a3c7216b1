#pragma once
// Device: where a tensor lives. A small value type, parsed from torch's spellings.

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace tide {

enum class DeviceType : int8_t { CPU, CUDA };
inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;

/// "cpu" or "cuda".
const char* device_type_name(DeviceType type);

class Device {
 public:
  /// index -1 means "no index": for cuda, the current device at the time of use.
  Device(DeviceType type, int index = -1);
  /// Parses "cpu", "cpu:N", "cuda", "cuda:N" (N without leading zeros), as torch.device.
  Device(const std::string& spec);
  Device(const char* spec);

  DeviceType type() const { return type_; }
  int index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  /// "cpu", "cuda", "cuda:1".
  std::string str() const;

  /// "cuda" != "cuda:0", as in torch.
  bool operator==(const Device& other) const {
    return type_ == other.type_ && index_ == other.index_;
  }
  bool operator!=(const Device& other) const { return !(*this == other); }

 private:
  DeviceType type_;
  int16_t index_;
};

std::ostream& operator<<(std::ostream& os, const Device& device);

}  // namespace tide

template <>
struct std::hash<tide::Device> {
  size_t operator()(const tide::Device& d) const noexcept {
    return std::hash<int>()((static_cast<int>(d.type()) << 16) ^ (d.index() & 0xffff));
  }
};
