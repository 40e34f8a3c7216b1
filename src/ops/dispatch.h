#pragma once
// Where an op's kernel runs.
//
// Note [Running kernels on their device]: every op front end ends with exactly one call to
// run_kernel(device, "op", kernel, args...). On cpu the kernel runs inline. On a cuda device (real or
// simulated) it is enqueued on that device's current stream — the operands' device, never the
// current device — and the call returns at once. The arguments (tensors) are copied into the
// task, so storages stay alive until the kernel has run even if the caller drops
// the last reference meanwhile (DESIGN.md decision 4). Kernels that detect bad input (an
// index out of range) report it with report_bad_input: on cpu that throws tide::Error at the
// call, as torch's cpu ops do; inside a stream it records the failure for the next
// synchronizing call (tide::KernelError with the op's provenance) and the stream continues.
//
// Note [Stream uses]: the caching allocator hands a freed block to its allocation stream's
// next request at once, which is safe for work on that stream only. torch leaves every other
// stream's use to the user (Tensor.record_stream); forgetting it lets a new tensor take memory
// that a side stream still reads or writes. tide records those uses itself: when an op runs on
// stream S of a cuda device, run_kernel compares each tensor argument's allocation stream
// (DataPtr::stream) with S — one integer compare per argument, nothing else on the common
// path — and only on a mismatch tells the allocator (memory::record_stream_use), which then
// keeps the block out of the pool, once freed, until a marker recorded on S at the free has
// completed. Keeping the tensors in the task is not enough for this: a real GPU runs a kernel
// after its launch returned, and memory reached outside tide ops is not in any task at all
// (for that, Tensor::record_stream remains). Cross-device copies record their uses in
// tensor/copy.cpp (Note [Copies between devices]).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "memory/device_allocators.h"
#include "runtime/error_channel.h"
#include "runtime/launch.h"
#include "tide/cuda/stream.h"
#include "tide/device.h"
#include "tide/error.h"
#include "tide/macros.h"
#include "tide/tensor.h"

namespace tide::detail {

/// Records that `stream` uses `t`'s memory when it was allocated on another stream (Note
/// [Stream uses]); other argument kinds use no memory.
inline void note_stream_use(const Tensor& t, const cuda::Stream& stream) {
  if (!t.defined()) return;
  const Storage& storage = t.storage();
  if (TIDE_UNLIKELY(storage.defined() && storage.data_ptr().stream() != stream.id())) {
    memory::record_stream_use(storage.data_ptr(), stream);
  }
}
inline void note_stream_use(const std::vector<Tensor>& ts, const cuda::Stream& stream) {
  for (const Tensor& t : ts) note_stream_use(t, stream);
}
inline void note_stream_use(const std::optional<Tensor>& t, const cuda::Stream& stream) {
  if (t) note_stream_use(*t, stream);
}
template <class T>
void note_stream_use(const T&, const cuda::Stream&) {}

/// Runs kernel(args...) on `device`: inline on cpu (arguments passed by reference, no copies
/// on the hot path), or enqueued on the device's current stream on cuda, with the arguments
/// copied into the task so they live until it ran. `op` must be a string literal.
template <class F, class... Args>
void run_kernel(Device device, const char* op, F kernel, const Args&... args) {
  if (device.is_cpu()) {
    kernel(args...);
    return;
  }
  const cuda::Stream stream = cuda::current_stream(device.index());
  (note_stream_use(args, stream), ...);
  runtime::launch(stream, op, runtime::Task([kernel, args...] { kernel(args...); }));
}

/// Reports input a kernel cannot process. See Note [Running kernels on their device].
inline void report_bad_input(bool on_cpu, const std::string& message) {
  if (on_cpu) throw Error(message);
  runtime::record_kernel_error(message);
}

}  // namespace tide::detail
