#pragma once
// What `tide info` and `tide demo` can honestly say about the cuda devices of this process.

#include <string>

namespace tide::cli {

/// The cuda devices the runtime sees (real or simulated), whether tensors can live on them,
/// and why not when they cannot.
struct CudaAvailability {
  int device_count = 0;
  /// Why there is no cuda device (empty when device_count > 0): a sentence a user can act on.
  std::string no_device_reason;
  /// Whether a tensor can be allocated on cuda:0 (false without devices).
  bool tensors = false;
  /// Why tensors cannot live on the devices that exist (empty otherwise).
  std::string no_tensor_reason;
};

/// Asks the runtime (tide::cuda::device_count, which reads TIDE_SIM_DEVICES and
/// CUDA_VISIBLE_DEVICES once per process) and tries one small cuda allocation. Never throws:
/// a bad TIDE_SIM_DEVICES becomes the no-device reason.
CudaAvailability cuda_availability();

}  // namespace tide::cli
