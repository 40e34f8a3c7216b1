#pragma once
// The real Driver of Note [Restoring a device]: the CUDA runtime's current device and the
// driver's primary-context state, and the thread's ThreadDevice.

#include "backends/cuda/thread_device.h"

namespace tide::backends::cuda {

struct RuntimeDriver {
  /// cudaGetDevice; -1 when it fails.
  int get() noexcept;
  /// cudaSetDevice; false (error cleared) when it fails.
  bool set(int device) noexcept;
  /// cuDevicePrimaryCtxGetState through cudaGetDriverEntryPointByVersion, so libtide needs no
  /// link to libcuda (machines without a driver still load it); false when it cannot tell.
  bool has_primary_context(int device) noexcept;
};

/// The calling thread's ThreadDevice.
ThreadDevice& thread_device() noexcept;

/// The thread's current device as tide sees it (Note [Restoring a device]).
int logical_current_device() noexcept;
/// Makes `device` current again without creating its context; never throws.
void restore_device(int device) noexcept;

}  // namespace tide::backends::cuda
