#pragma once
// RAII restorers for the process's default dtype and the thread's default device, so a test
// that changes them leaves the next test (same process) with the defaults it expects.

#include "tide/default_device.h"
#include "tide/default_dtype.h"

namespace tide::test {

/// Sets the default dtype for the scope and restores the previous one.
class DefaultDtypeGuard {
 public:
  explicit DefaultDtypeGuard(Dtype dtype) : saved_(get_default_dtype()) { set_default_dtype(dtype); }
  ~DefaultDtypeGuard() { set_default_dtype(saved_); }
  DefaultDtypeGuard(const DefaultDtypeGuard&) = delete;
  DefaultDtypeGuard& operator=(const DefaultDtypeGuard&) = delete;

 private:
  Dtype saved_;
};

/// Sets this thread's default device for the scope and restores the previous one as it was
/// set ("cuda" stays unresolved).
class DefaultDeviceGuard {
 public:
  explicit DefaultDeviceGuard(Device device) : saved_(detail::thread_default_device()) {
    set_default_device(device);
  }
  ~DefaultDeviceGuard() { set_default_device(saved_); }
  DefaultDeviceGuard(const DefaultDeviceGuard&) = delete;
  DefaultDeviceGuard& operator=(const DefaultDeviceGuard&) = delete;

 private:
  Device saved_;
};

}  // namespace tide::test
