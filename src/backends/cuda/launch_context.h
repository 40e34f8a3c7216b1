#pragma once
// The native launch in progress on this host thread: where GPU launchers enqueue their work.
// Plain C++ (no CUDA headers): cudaStream_t is CUstream_st*.

#include <cstdint>

#include "backends/cuda/error_record.h"

struct CUstream_st;

namespace tide::backends::cuda {

/// Note [Native launches]: run_kernel (ops/dispatch.h) brackets a GPU launcher call with
/// runtime::NativeLaunch, which asks the backend for a sequence number on the stream, makes
/// the stream's device current on this thread and fills this context; the launcher reads it
/// to launch on the right stream, size its grid for the device and reach the error record.
/// Launchers enqueue asynchronously and never synchronize or allocate host memory.
struct LaunchContext {
  int device = -1;
  CUstream_st* stream = nullptr;
  uint64_t stream_id = 0;
  uint64_t seq = 0;
  int sm_count = 1;                   // multiprocessors of the device
  int max_threads_per_sm = 2048;
  DeviceErrorRecord* errors = nullptr;  // the device's record (Note [Device error records])
  int32_t* error_flag = nullptr;          // device view of the mapped host flag

  ErrorSink error_sink() const { return ErrorSink{errors, error_flag, launch_token(stream_id, seq)}; }
};

/// The launch in progress on this thread; only valid inside a GPU launcher.
const LaunchContext& current_launch();

}  // namespace tide::backends::cuda
