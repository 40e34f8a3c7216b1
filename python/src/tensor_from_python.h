#pragma once
// Tensors from Python data: nested lists and tuples of numbers (tide.tensor, tide.Tensor([...]),
// x.new_tensor) and torch's size arguments (tide.zeros(2, 3) or tide.zeros((2, 3))).

#include <cstdint>
#include <optional>
#include <vector>

#include <nanobind/nanobind.h>

#include "tide/tensor.h"

namespace tide::python {

/// A tensor holding `data` (a number, a bool, a tide.Tensor or a nested list/tuple of them).
/// The dtype is `dtype` when given, else inferred as torch does (bool, int64, or the default
/// float dtype); built on the cpu, then moved to `device` (the default device when absent).
Tensor tensor_from_python(nanobind::handle data, std::optional<Dtype> dtype,
                          std::optional<Device> device);

/// torch's size arguments: sizes as separate ints, or one sequence of ints (tuple, list,
/// tide.Size). `what` names the caller in the error for anything else.
std::vector<int64_t> sizes_from_args(const nanobind::args& args, const char* what);

/// One sequence of ints (a tuple, list or tide.Size).
std::vector<int64_t> sizes_from_sequence(nanobind::handle seq, const char* what);

}  // namespace tide::python
