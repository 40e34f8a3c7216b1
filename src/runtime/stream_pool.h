#pragma once
// Stream pools and this thread's current stream per device (Note [Stream pool] in stream.h).

#include "runtime/backend.h"
#include "tide/cuda/stream.h"

namespace tide::runtime {

/// Creates the per-device pool tables; called once by the registry when cuda starts.
void init_stream_pools(Backend* backend, int device_count);

/// `device`'s default stream (device already checked).
cuda::Stream default_stream_of(int device);
/// The next stream of `device`'s pool for `priority` (clamped to 0 or -1), round-robin.
cuda::Stream next_pool_stream(int device, int priority);
/// This thread's current stream on `device` (device already checked).
cuda::Stream current_stream_of(int device);
/// The stream of `device` with runtime id `id` (Note [Stream pool]; both already checked).
cuda::Stream stream_of(int device, uint64_t id);
/// Makes `stream` this thread's current stream on its device.
void set_current_stream(const cuda::Stream& stream);

}  // namespace tide::runtime
