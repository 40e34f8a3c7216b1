#pragma once
// raw_stream: the cudaStream_t behind a tide stream, for the code that hands streams to CUDA
// libraries (NCCL, cuBLAS, DLPack consumers). Only src/backends/cuda and src/kernels/cuda can
// include this header (it includes cuda_runtime.h): DESIGN.md decision 11.

#include <cuda_runtime.h>

#include "tide/cuda/stream.h"

namespace tide::backends::cuda {

/// The CUDA stream `stream` enqueues on: nullptr (the legacy default stream) for a device's
/// default stream, the pooled cudaStream_t otherwise. `stream` must belong to the real CUDA
/// backend (the one serving kCUDA in this process).
cudaStream_t raw_stream(const tide::cuda::Stream& stream);

}  // namespace tide::backends::cuda
