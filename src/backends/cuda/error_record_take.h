#pragma once
// Taking a device's error record from the host (Note [Device error records]).

#include <cuda_runtime.h>

#include "backends/cuda/error_record.h"

namespace tide::backends::cuda {

/// Enqueues on `stream` a one-thread kernel that, under the record's lock, copies `record` to
/// `out` (pinned host memory) and empties the record, leaving a tombstone of its token. The
/// caller synchronizes `stream` before reading `out`.
void enqueue_take_error_record(DeviceErrorRecord* record, DeviceErrorRecord* out,
                               cudaStream_t stream);
/// Enqueues the record's initialization to empty_error_record() on `stream`.
void enqueue_init_error_record(DeviceErrorRecord* record, cudaStream_t stream);

}  // namespace tide::backends::cuda
