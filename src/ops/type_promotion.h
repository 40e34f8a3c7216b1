#pragma once
// torch's type promotion (torch.result_type) for op front ends.
//
// Note [Type promotion]: operands fall in three priority classes: tensors with dim > 0, 0-dim
// tensors, and wrapped numbers (Scalars). Within a class dtypes promote with promote_types.
// A lower class only matters when its category (bool < integer < floating) is higher than
// the higher class's result: float32 tensor + float64 0-dim tensor is float32, int64 tensor +
// float64 0-dim tensor is float64, int32 tensor + int64 Scalar is int32. A floating Scalar
// counts as the default dtype (Note [Default dtype] in tide/default_dtype.h; float32 unless
// set_default_dtype changed it), so int64 tensor + 2.5 is float32 and float16 tensor + 2.5
// stays float16; an integer Scalar counts as int64, so bool tensor + 1 is int64.
//
// Promotion happens before any operand is read: a 0-dim cpu tensor used as a scalar next to a
// cuda tensor still promotes as a 0-dim tensor (its dtype, not the Scalar's), as torch.

#include <initializer_list>
#include <optional>

#include "tide/dtype.h"
#include "tide/scalar.h"
#include "tide/tensor.h"

namespace tide::detail {

/// The running state of torch.result_type over any number of operands (torch's ResultTypeState).
struct ResultTypeState {
  std::optional<Dtype> dim_result;      // tensors with dim > 0
  std::optional<Dtype> zero_dim_result;  // 0-dim tensors
  std::optional<Dtype> wrapped_result;   // Scalars
};

/// Adds one tensor operand; undefined tensors are skipped.
void update_result_type(ResultTypeState& state, const Tensor& t);
/// Adds one Scalar operand (a wrapped number).
void update_result_type(ResultTypeState& state, const Scalar& s);
/// The promoted dtype of everything added so far; the default dtype when nothing was added.
Dtype result_type(const ResultTypeState& state);

/// torch.result_type over tensors and Scalars, e.g. result_type({&a, &b}, {alpha}).
Dtype result_type(std::initializer_list<const Tensor*> tensors,
                  std::initializer_list<Scalar> scalars = {});
/// Two-tensor form for hot paths (no state built when the dtypes agree).
Dtype result_type(const Tensor& a, const Tensor& b);
/// Tensor and Scalar form for hot paths.
Dtype result_type(const Tensor& a, const Scalar& b);

/// torch.can_cast: false from floating to integral/bool and from non-bool to bool.
bool can_cast(Dtype from, Dtype to);

/// Raises torch's "result type Float can't be cast to the desired output type Long" unless
/// `result` may be written into an output of dtype `out`.
void check_can_cast_to_output(Dtype result, Dtype out, const char* where);

}  // namespace tide::detail
