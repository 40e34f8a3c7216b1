#pragma once
// StreamRecord and EventRecord: the types through which the runtime holds a backend's streams
// and events (StreamHandle, EventHandle).

namespace tide::runtime {

/// Note [Typed native handles]: a stream or event handle points at the backend's own record
/// (sim::SimStream, backends::cuda::CudaStream, ...), which derives from one of these empty
/// bases; only the backend that made a record downcasts it, to its own type. Handles used to
/// be void*, and code outside backends/cuda cast Stream::native_handle() to cudaStream_t: it
/// compiled, and handed NCCL and DLPack consumers tide's record as a CUDA stream (a crash on
/// the first real GPU, found by review: issue 21). With a distinct type that cast no longer
/// compiles (CUstream_st is no class derived from StreamRecord), and
/// tests/runtime/native_handle_test.cpp keeps it so. The CUDA stream behind a tide stream comes
/// from backends::cuda::raw_stream (CUDA code) or Stream::cuda_stream() (an integer, torch's
/// meaning), never from a cast. DESIGN.md decision 11.
struct StreamRecord {
 protected:
  StreamRecord() = default;
  /// Records are destroyed as their backend's type, never through the base.
  ~StreamRecord() = default;
};

struct EventRecord {
 protected:
  EventRecord() = default;
  ~EventRecord() = default;
};

using StreamHandle = StreamRecord*;
using EventHandle = EventRecord*;

}  // namespace tide::runtime
