#pragma once
// Helpers shared by the tensor and ops layers (not public).

#include <cstdint>
#include <string>

#include "tide/tensor.h"

namespace tide::detail {

/// Wraps a possibly negative dim into [0, ndim); `where` names the calling function.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* where);
/// Row-major (contiguous) strides for `sizes`.
DimVector contiguous_strides(const DimVector& sizes);
/// Product of sizes, checking each is non-negative.
int64_t checked_numel(const DimVector& sizes, const char* where);
/// A new uninitialized contiguous tensor on a concrete device.
Tensor make_empty(const DimVector& sizes, Dtype dtype, Device device, bool pinned = false);
/// The device a factory should allocate on: "cuda" becomes the current cuda device;
/// a nonexistent device is rejected with the device count.
Device resolve_device(Device device, const char* where);
/// "(2, 3)" as torch prints a shape.
std::string shape_str(const DimVector& sizes);

}  // namespace tide::detail
