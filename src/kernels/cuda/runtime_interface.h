#pragma once
// What GPU kernels and launchers use of the CUDA device runtime (src/backends/cuda), and
// nothing else: the launch in progress on this thread (its stream, device sizes and error
// sink) and the CUDA error checks. Kernels report bad indices through the runtime's
// device-side report (backends/cuda/device_errors.cuh), never through its error channel.

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/launch_context.h"

namespace tide::kernels::cuda {

using backends::cuda::current_launch;
using backends::cuda::ErrorSink;
using backends::cuda::LaunchContext;

}  // namespace tide::kernels::cuda
