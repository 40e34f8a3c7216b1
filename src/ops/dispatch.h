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

#include <string>
#include <utility>

#include "runtime/error_channel.h"
#include "runtime/launch.h"
#include "tide/cuda/stream.h"
#include "tide/device.h"
#include "tide/error.h"

namespace tide::detail {

/// Runs kernel(args...) on `device`: inline on cpu (arguments passed by reference, no copies
/// on the hot path), or enqueued on the device's current stream on cuda, with the arguments
/// copied into the task so they live until it ran. `op` must be a string literal.
template <class F, class... Args>
void run_kernel(Device device, const char* op, F kernel, const Args&... args) {
  if (device.is_cpu()) {
    kernel(args...);
    return;
  }
  runtime::launch(cuda::current_stream(device.index()), op,
                  runtime::Task([kernel, args...] { kernel(args...); }));
}

/// Reports input a kernel cannot process. See Note [Running kernels on their device].
inline void report_bad_input(bool on_cpu, const std::string& message) {
  if (on_cpu) throw Error(message);
  runtime::record_kernel_error(message);
}

}  // namespace tide::detail
