#pragma once
// DeviceGuard: `with torch.cuda.device(i):` as RAII.

#include "tide/device.h"

namespace tide::cuda {

/// Makes a device current for its lifetime and restores the previous current device.
/// An index of -1 (or a cuda Device without index) changes nothing, as torch.cuda.device(None).
class DeviceGuard {
 public:
  explicit DeviceGuard(int index);
  explicit DeviceGuard(Device device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

  /// The device that was current before the guard (-1 if the guard changed nothing).
  int original_device() const { return original_; }

 private:
  int original_ = -1;
};

}  // namespace tide::cuda
