#pragma once
// Python indexing of tensors: x[1], x[:, 0], x[..., None], x[1:3, ::2], x[idx] with an integer
// tensor, and the assignments x[...] = value, as torch's basic and (1-D) advanced indexing.

#include <nanobind/nanobind.h>

#include "tide/tensor.h"

namespace tide::python {

/// x[key]: a view for ints, slices, None and Ellipsis; a gathered copy for an integer tensor.
Tensor index(const Tensor& self, nanobind::handle key);

/// x[key] = value, value a tensor (broadcast to the indexed shape) or a number.
void index_assign(const Tensor& self, nanobind::handle key, nanobind::handle value);

}  // namespace tide::python
