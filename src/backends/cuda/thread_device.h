#pragma once
// ThreadDevice: a thread's current CUDA device, restored without creating contexts.
// Plain C++ (no CUDA headers) so the decisions are unit-tested with a fake driver.

namespace tide::backends::cuda {

/// Note [Restoring a device]: since CUDA 12, cudaSetDevice creates the device's primary
/// context at once (about half a GiB of GPU memory), and a fresh thread's current device is
/// 0. A guard that restores "the previous device" after work on cuda:1 would therefore create
/// a context on GPU 0, which the process never used. As torch's MaybeSetDevice, a restore
/// calls cudaSetDevice only when the device's primary context is already active; otherwise it
/// remembers the device as the thread's target, which current() reports and the next set()
/// replaces. Nothing relies on the driver's current device being the remembered one: every
/// CUDA call of the backend runs under a CudaDeviceGuard or a native launch for its own
/// device. Restores never run per-device setup and never throw (they run in destructors).
/// Pinned host memory is allocated on a device that already has a context (host_alloc_device).
///
/// `Driver` supplies, all noexcept: `int get()` (the driver's current device, -1 on failure),
/// `bool set(int)` (cudaSetDevice; false on failure) and `bool has_primary_context(int)`.
class ThreadDevice {
 public:
  /// The thread's current device: the remembered target, else the driver's.
  template <class Driver>
  int current(Driver& driver) const noexcept {
    return target_ >= 0 ? target_ : driver.get();
  }

  /// After the driver's device was set explicitly (set_device, a guard entering a device):
  /// the driver's device is the current one again.
  void forget_target() noexcept { target_ = -1; }

  /// Makes `device` current again after a guard or a launch, without creating its context.
  template <class Driver>
  void restore(Driver& driver, int device) noexcept {
    if (driver.get() == device) {
      target_ = -1;
    } else if (driver.has_primary_context(device) && driver.set(device)) {
      target_ = -1;
    } else {
      target_ = device;
    }
  }

 private:
  int target_ = -1;
};

/// The device cudaHostAlloc runs on: the current one when it has a primary context, else the
/// first device that has one (pinned memory is usable from every device under unified
/// addressing, as torch's host allocator assumes), else the current one (the process's first
/// CUDA work creates a context somewhere anyway).
template <class Driver>
int host_alloc_device(Driver& driver, int current, int device_count) noexcept {
  if (driver.has_primary_context(current)) return current;
  for (int d = 0; d < device_count; ++d) {
    if (driver.has_primary_context(d)) return d;
  }
  return current;
}

}  // namespace tide::backends::cuda
