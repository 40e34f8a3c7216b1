#include "backends/cuda/runtime_driver.h"

#include <cuda.h>
#include <cuda_runtime.h>

namespace tide::backends::cuda {
namespace {

using DeviceGetFn = CUresult (*)(CUdevice*, int);
using PrimaryCtxGetStateFn = CUresult (*)(CUdevice, unsigned int*, int*);

/// The two driver entry points, looked up once; null when the driver lacks them.
struct DriverEntryPoints {
  DeviceGetFn device_get = nullptr;
  PrimaryCtxGetStateFn primary_ctx_get_state = nullptr;

  DriverEntryPoints() {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuDeviceGet", &fn, 12000, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess) {
      device_get = reinterpret_cast<DeviceGetFn>(fn);
    }
    fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 12000,
                                         cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess) {
      primary_ctx_get_state = reinterpret_cast<PrimaryCtxGetStateFn>(fn);
    }
    (void)cudaGetLastError();
  }
};

}  // namespace

int RuntimeDriver::get() noexcept {
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return device;
}

bool RuntimeDriver::set(int device) noexcept {
  if (cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

bool RuntimeDriver::has_primary_context(int device) noexcept {
  static const DriverEntryPoints entry;
  if (!entry.device_get || !entry.primary_ctx_get_state) return false;
  CUdevice handle{};
  if (entry.device_get(&handle, device) != CUDA_SUCCESS) return false;
  unsigned int flags = 0;
  int active = 0;
  if (entry.primary_ctx_get_state(handle, &flags, &active) != CUDA_SUCCESS) return false;
  return active != 0;
}

ThreadDevice& thread_device() noexcept {
  thread_local ThreadDevice device;
  return device;
}

int logical_current_device() noexcept {
  RuntimeDriver driver;
  return thread_device().current(driver);
}

void restore_device(int device) noexcept {
  RuntimeDriver driver;
  thread_device().restore(driver, device);
}

}  // namespace tide::backends::cuda
