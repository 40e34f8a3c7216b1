#pragma once
// Broadcasting many small tensors (a module's parameters and buffers) as a few flat ones.

#include <cstddef>
#include <vector>

#include "tide/tensor.h"

namespace tide::distributed::detail {

/// torch's broadcast bucket for module states in DistributedDataParallel, 250 MiB).
inline constexpr size_t kBroadcastBucketBytes = size_t{250} << 20;

/// Gives every rank `src`'s values of `tensors`, in place (without recording autograd history,
/// so parameters that require grad may be among them). Consecutive tensors of one dtype are
/// concatenated into flat tensors of up to `bucket_bytes` (at least one tensor each), one
/// broadcast per flat tensor: every rank must pass tensors of the same dtypes and sizes in the
/// same order. All tensors must be on one device.
void broadcast_coalesced(const std::vector<Tensor>& tensors, int src,
                         size_t bucket_bytes = kBroadcastBucketBytes);

}  // namespace tide::distributed::detail
