#pragma once
// Checks and shape helpers shared by every op front end.
//
// Note [Op structure]: an op is a front end in src/ops/ (check devices and dtypes, compute the
// result dtype and shape, allocate the output on the operands' device) and a kernel in
// src/kernels/cpu/ that it calls once with fully prepared tensors. Keeping the kernel call a
// single step is what lets the device/stream layer enqueue it on the operands' stream later.

#include <initializer_list>
#include <vector>

#include "tensor/tensor_internal.h"
#include "tide/tensor.h"

namespace tide::detail {

/// For elementwise ops only (torch's TensorIterator ops: binary, where, ...): the device every
/// operand lives on. Raises torch's cross-device error otherwise; a 0-dim cpu tensor is allowed
/// next to a cuda tensor (it acts as a scalar: torch's wrapped-number rule). Never use it for
/// an op that hands a non-elementwise operand (an index, a target, a weight) to its kernel:
/// that kernel would get a host pointer on a GPU (see same_device).
Device common_device(std::initializer_list<const Tensor*> operands, const char* where);

/// One operand of an op, with the argument name torch's cross-device message gives it.
struct NamedOperand {
  const char* name;
  const Tensor* tensor;
};

/// Every other op: all defined operands on one device, with no exception for 0-dim cpu
/// tensors. Raises torch's message, naming the argument that differs from the first operand
/// ("... cuda:0 and cpu! (when checking argument for argument index in method
/// wrapper__index_select)").
Device same_device(std::initializer_list<NamedOperand> operands, const char* where);

/// torch's broadcasting of two shapes; the error names both shapes.
DimVector broadcast_shapes(const DimVector& a, const DimVector& b, const char* where);

/// Raises unless `t` is defined; `what` names the argument.
void check_defined(const Tensor& t, const char* where, const char* what);

}  // namespace tide::detail
