#pragma once
// Which gradient bucket each DDP parameter belongs to.
//
// Note [Gradient buckets]: as torch's compute_bucket_assignment_by_size, but walking the
// parameters in reverse registration order (the order backward usually produces their
// gradients: the last layer first), so bucket 0 fills first and can be all-reduced while
// backward is still working on earlier layers. Each dtype has its own open bucket (a bucket is
// one flat tensor of one dtype); a parameter joins its dtype's open bucket, and the bucket
// closes once it holds cap_bytes or more, so a bucket exceeds the cap by at most its last
// parameter and cap 0 gives each parameter a bucket of its own. Buckets are ordered by when
// they were opened, which is the order their last gradients are expected to arrive in.
// torch additionally rebuilds the buckets after the first iteration in the order gradients
// actually arrived (with a small 1 MiB first bucket); tide keeps the first assignment.

#include <cstddef>
#include <vector>

#include "tide/tensor.h"

namespace tide::distributed::detail {

/// Indices into `params`, one list per bucket, each list in the order the parameters were
/// placed (reverse registration order).
std::vector<std::vector<size_t>> compute_bucket_assignment(const std::vector<Tensor>& params,
                                                           size_t cap_bytes);

}  // namespace tide::distributed::detail
