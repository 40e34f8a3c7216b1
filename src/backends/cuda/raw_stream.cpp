#include "backends/cuda/raw_stream.h"

#include "backends/cuda/cuda_backend.h"
#include "runtime/registry.h"
#include "tide/error.h"

namespace tide::backends::cuda {

cudaStream_t raw_stream(const tide::cuda::Stream& stream) {
  // A simulated stream's record is no CudaStream: unwrapping one would hand NCCL garbage.
  TIDE_INTERNAL_ASSERT(runtime::native_kernels(), "raw_stream on a simulated GPU's stream");
  return static_cast<const CudaStream*>(stream.native_handle())->stream;
}

}  // namespace tide::backends::cuda
