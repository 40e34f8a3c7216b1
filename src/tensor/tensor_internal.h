#pragma once
// Helpers shared by the tensor and ops layers (not public).

#include <cstdint>
#include <string>

#include "tensor/checked_size.h"
#include "tide/tensor.h"

namespace tide::detail {

/// Wraps a possibly negative dim into [0, ndim); `where` names the calling function.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* where);
/// Row-major (contiguous) strides for `sizes`.
DimVector contiguous_strides(const DimVector& sizes);
/// A new uninitialized contiguous tensor on a concrete device; `where` names the calling
/// function in size errors (Note [Size overflow]).
Tensor make_empty(const DimVector& sizes, Dtype dtype, Device device, bool pinned = false,
                  const char* where = "empty");
/// A new uninitialized tensor as the factories make it: the device of the options or the
/// default device, pinned if asked; `where` names the calling factory in errors.
Tensor empty_with(const DimVector& sizes, const TensorOptions& options, Dtype dtype,
                  const char* where);
/// The device a factory should allocate on: "cuda" becomes the current cuda device;
/// a nonexistent device is rejected with the device count.
Device resolve_device(Device device, const char* where);
/// "(2, 3)" as torch prints a shape.
std::string shape_str(const DimVector& sizes);

}  // namespace tide::detail
