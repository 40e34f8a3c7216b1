#include "devices.h"

#include <exception>

#include "runtime/registry.h"
#include "tide/cuda/device.h"
#include "tide/factories.h"

namespace tide::cli {

CudaAvailability cuda_availability() {
  CudaAvailability a;
  try {
    a.device_count = cuda::device_count();
  } catch (const std::exception& e) {
    a.no_device_reason = e.what();
    return a;
  }
  if (a.device_count == 0) {
    a.no_device_reason = runtime::cuda_unavailable_reason();
    if (a.no_device_reason.empty()) a.no_device_reason = "the cuda runtime reports 0 devices";
    return a;
  }
  // Devices and tensors on them land separately (the runtime, then the device allocator), so
  // ask the tensor layer directly instead of assuming.
  try {
    (void)empty({1}, device(Device(kCUDA, 0)));
    a.tensors = true;
  } catch (const std::exception& e) {
    a.no_tensor_reason = e.what();
  }
  return a;
}

}  // namespace tide::cli
