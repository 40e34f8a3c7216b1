#pragma once
// Move-only owners of CUDA runtime handles (STYLE.md habit 7). Destructors never throw: they
// report a failure on stderr (TIDE_CUDA_CHECK_NOTHROW) and go on.

#include <cuda_runtime.h>

#include <utility>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/runtime_driver.h"

namespace tide::backends::cuda {

/// Owns one handle of type H, released with Destroy when non-null.
template <class H, cudaError_t (*Destroy)(H)>
class UniqueHandle {
 public:
  UniqueHandle() = default;
  explicit UniqueHandle(H h) : h_(h) {}
  ~UniqueHandle() { reset(); }
  UniqueHandle(UniqueHandle&& o) noexcept : h_(std::exchange(o.h_, H{})) {}
  UniqueHandle& operator=(UniqueHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, H{});
    }
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;

  H get() const { return h_; }
  explicit operator bool() const { return h_ != H{}; }
  void reset() noexcept {
    if (h_ != H{}) TIDE_CUDA_CHECK_NOTHROW(Destroy(h_));
    h_ = H{};
  }

 private:
  H h_{};
};

using StreamOwner = UniqueHandle<cudaStream_t, &cudaStreamDestroy>;
using EventOwner = UniqueHandle<cudaEvent_t, &cudaEventDestroy>;
/// Device memory from cudaMalloc (never used for tensors: those come from the caching
/// allocator, which calls Backend::malloc).
using DeviceMemoryOwner = UniqueHandle<void*, &cudaFree>;
/// Page-locked host memory from cudaHostAlloc.
using HostMemoryOwner = UniqueHandle<void*, &cudaFreeHost>;

/// Makes `device` current on this thread for the object's lifetime, then makes the previous
/// device current again without creating its context (Note [Restoring a device]); no driver
/// call but cudaGetDevice when `device` already is current.
class CudaDeviceGuard {
 public:
  explicit CudaDeviceGuard(int device) : previous_(logical_current_device()) {
    int real = 0;
    TIDE_CUDA_CHECK(cudaGetDevice(&real));
    if (real != device) TIDE_CUDA_CHECK(cudaSetDevice(device));
    thread_device().forget_target();
    changed_ = previous_ != device;
  }
  ~CudaDeviceGuard() {
    if (changed_) restore_device(previous_);
  }
  CudaDeviceGuard(const CudaDeviceGuard&) = delete;
  CudaDeviceGuard& operator=(const CudaDeviceGuard&) = delete;

 private:
  int previous_;
  bool changed_ = false;
};

/// CudaDeviceGuard for noexcept paths (frees, event destruction): a failure to enter the
/// device is a warning, and the call that follows runs where it can.
class CudaDeviceGuardNoThrow {
 public:
  explicit CudaDeviceGuardNoThrow(int device) noexcept : previous_(logical_current_device()) {
    RuntimeDriver driver;
    if (driver.get() != device) TIDE_CUDA_CHECK_NOTHROW(cudaSetDevice(device));
    thread_device().forget_target();
    changed_ = previous_ != device;
  }
  ~CudaDeviceGuardNoThrow() {
    if (changed_) restore_device(previous_);
  }
  CudaDeviceGuardNoThrow(const CudaDeviceGuardNoThrow&) = delete;
  CudaDeviceGuardNoThrow& operator=(const CudaDeviceGuardNoThrow&) = delete;

 private:
  int previous_;
  bool changed_ = false;
};

}  // namespace tide::backends::cuda
