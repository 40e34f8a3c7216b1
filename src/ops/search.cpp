// searchsorted and bucketize (torch 1.13's names, arguments and checks).
//
// Note [searchsorted]: each value's insertion point in its row of the sorted sequence, found by
// binary search (kernels/search_bound.h: the same search on the cpu and on GPUs, one value
// per thread there), so the cost is log2 of the row length per value where the composition it
// replaces compared every value with every entry. The rows are sorted_sequence's innermost
// dim: one row for every value when sorted_sequence is 1-D, else one row per leading index,
// which values' leading dims must match. Operands of different dtypes are compared in their
// promoted dtype, as torch; `sorter` (argsort's result) reads the sequence through it, which
// is done here by gathering the sorted rows first. The search itself never reports an error:
// every check is made on the host before the launch.

#include <algorithm>
#include <optional>
#include <string>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/type_promotion.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

constexpr const char* kWhere = "searchsorted";

bool search_right(bool right, const std::optional<std::string>& side) {
  if (!side) return right;
  TIDE_CHECK(*side == "left" || *side == "right", "[", kWhere, "] torch.searchsorted(): side can "
             "only be 'left' or 'right' but got ", *side, "; pass side=\"left\" or side=\"right\"");
  TIDE_CHECK(!(right && *side == "left"), "[", kWhere, "] torch.searchsorted(): side and right "
             "can't be set to opposites, got side of left while right was True; give one of them");
  return *side == "right";
}

/// The sequence read through `sorter` when one is given (checked as torch checks it).
Tensor through_sorter(const Tensor& sorted_sequence, const Tensor& sorter) {
  if (!sorter.defined()) return sorted_sequence;
  TIDE_CHECK(sorter.dtype() == kInt64, "[", kWhere, "] torch.searchsorted(): sorter must be a "
             "tensor of long dtype but got dtype ", name(sorter.dtype()),
             "; pass argsort's result (int64)");
  TIDE_CHECK(sorter.shape() == sorted_sequence.shape(), "[", kWhere, "] torch.searchsorted(): "
             "boundary and sorter must have the same size, but got boundary tensor ",
             shape_str(sorted_sequence.shape()), " and got sorter tensor ",
             shape_str(sorter.shape()), "; pass sorted_sequence.argsort()");
  // gather checks each position against the row (torch reads past it: undefined behaviour).
  return sorted_sequence.gather(-1, sorter);
}

Tensor search(const Tensor& sorted_sequence, const Tensor& values, bool out_int32, bool right,
              bool value_is_scalar) {
  const Device device =
      same_device({{"sorted_sequence", &sorted_sequence}, {"self", &values}}, kWhere);
  TIDE_CHECK(sorted_sequence.dim() > 0, "[", kWhere, "] torch.searchsorted(): boundaries tensor "
             "should have positive dimension, but got 0 dimension; pass a 1-D (or N-D) sorted "
             "tensor");
  const int64_t rank = sorted_sequence.dim();
  if (value_is_scalar || values.dim() == 0) {
    TIDE_CHECK(rank == 1, "[", kWhere, "] torch.searchsorted(): input value can be a scalar only "
               "when boundaries tensor dimension is 1, but we got boundaries tensor dim(", rank,
               ") and input value's dim(0) numel(1); pass the value as a tensor of the leading "
               "dims");
  } else if (rank > 1) {
    const bool leading_match =
        values.dim() == rank &&
        std::equal(values.shape().begin(), values.shape().end() - 1,
                   sorted_sequence.shape().begin());
    TIDE_CHECK(leading_match, "[", kWhere, "] torch.searchsorted(): boundaries tensor should be 1 "
               "dimension or the first N-1 dimensions of boundaries tensor and input value tensor "
               "must match, but we got boundaries tensor ", shape_str(sorted_sequence.shape()),
               " and input value tensor ", shape_str(values.shape()),
               "; give values the sequence's leading dims");
  }
  const Dtype common = result_type(sorted_sequence, values);
  TIDE_CHECK(common != kBool, "[", kWhere, "] torch.searchsorted(): expected number dtypes, found "
             "bool for both the sequence and the values (torch: not implemented for 'Bool'); "
             "convert them with .int()");
  Tensor out = make_empty(values.shape(), out_int32 ? kInt32 : kInt64, device);
  if (out.numel() == 0) return out;
  const int64_t len = sorted_sequence.size(-1);
  if (len == 0) return out.zero_();  // every value goes before an empty row
  const Tensor sorted = sorted_sequence.to(common).contiguous();
  const Tensor vals = values.to(common).contiguous();
  const int64_t per_row = rank == 1 ? vals.numel() : values.size(-1);
  run_kernel(device, kWhere, kernels::search_stub, out, sorted, vals, len, per_row, right);
  return out;
}

}  // namespace

Tensor plain_searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32,
                          bool right, std::optional<std::string> side, const Tensor& sorter) {
  check_defined(sorted_sequence, kWhere, "sorted_sequence");
  check_defined(self, kWhere, "self");
  const bool r = search_right(right, side);
  return search(through_sorter(sorted_sequence, sorter), self, out_int32, r, false);
}

Tensor plain_searchsorted(const Tensor& sorted_sequence, Scalar self, bool out_int32, bool right,
                          std::optional<std::string> side, const Tensor& sorter) {
  check_defined(sorted_sequence, kWhere, "sorted_sequence");
  const bool r = search_right(right, side);
  // The scalar in the sequence's promoted dtype (2.5 against int64 entries stays 2.5).
  const Tensor value = scalar_tensor(
      self, TensorOptions(sorted_sequence.device()).dtype(result_type(sorted_sequence, self)));
  return search(through_sorter(sorted_sequence, sorter), value, out_int32, r, true);
}

Tensor plain_bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  check_defined(boundaries, "bucketize", "boundaries");
  TIDE_CHECK(boundaries.dim() == 1, "[bucketize] boundaries tensor must be 1 dimension, but got "
             "dim(", boundaries.dim(), "); use searchsorted for rows of boundaries");
  return plain_searchsorted(boundaries, self, out_int32, right, std::nullopt, Tensor());
}

Tensor plain_bucketize(Scalar self, const Tensor& boundaries, bool out_int32, bool right) {
  check_defined(boundaries, "bucketize", "boundaries");
  TIDE_CHECK(boundaries.dim() == 1, "[bucketize] boundaries tensor must be 1 dimension, but got "
             "dim(", boundaries.dim(), "); use searchsorted for rows of boundaries");
  return plain_searchsorted(boundaries, self, out_int32, right, std::nullopt, Tensor());
}

}  // namespace tide::detail
