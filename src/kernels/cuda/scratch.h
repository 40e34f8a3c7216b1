#pragma once
// Temporary device memory for kernels that run in several passes.

#include <cstdint>

#include "tensor/tensor_internal.h"
#include "tide/tensor.h"

namespace tide::kernels::cuda {

/// `nbytes` of device memory on `device` from the caching allocator, tagged with the device's
/// current stream, which is the stream the launch in progress runs on (run_kernel launches on
/// it). Dropping the tensor when the launcher returns is safe: the allocator hands the block
/// out again only to later work on that stream, which runs after the kernels that used it.
/// Aligned as every allocator block is (at least 256 bytes).
inline Tensor scratch_bytes(int64_t nbytes, Device device) {
  return detail::make_empty(DimVector{nbytes}, kUInt8, device);
}

}  // namespace tide::kernels::cuda
