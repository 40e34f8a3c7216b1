#pragma once
// Where an op's kernel runs.
//
// Note [Running kernels on their device]: every op front end ends with exactly one call to
// run_kernel(device, "op", stub, args...) (stubs: Note [Kernel stubs] in kernels/kernel_stub.h).
// On cpu the cpu loop runs inline. On a cuda device it goes to that device's current stream —
// the operands' device, never the current device — and the call returns at once: on simulated
// GPUs the cpu loop becomes a task with the arguments (tensors) copied into it, so storages
// stay alive until it has run even if the caller drops the last reference meanwhile (DESIGN.md
// decision 4); on real GPUs the GPU launcher runs here inside a native launch and enqueues the
// kernel, and the caching allocator's stream rules keep the memory safe instead (Note [Stream
// uses] below). Kernels that detect bad input (an index out of range) report it: on cpu as
// tide::Error at the call, as torch's cpu ops do; on a stream as a failure for the next
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
//
// run_kernel is also where every op declares its reads and writes to the stream sanitizer
// (Note [Stream sanitizer] in runtime/sanitizer.h): the stub says which parameters it writes
// (Note [Kernel stubs]), every other tensor is read. Off, that costs one predictable branch.

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/kernel_stub.h"
#include "memory/device_allocators.h"
#include "runtime/error_channel.h"
#include "runtime/launch.h"
#include "runtime/registry.h"
#include "runtime/sanitizer.h"
#include "tensor/sanitizer_access.h"
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

[[noreturn]] void throw_no_cuda_kernel(const char* op);

// Note [Tasks capture geometry, not TensorImpls]: a task on a simulated stream runs later, on
// the stream's thread. Tensor::set_data (torch's `param.data = x`, used by Module::to and by
// optimizers) swaps a TensorImpl's storage in place, so a task holding the caller's TensorImpl
// would read the storage the tensor has when the task runs, not when the op was called —
// e.g. p.set_data(p.sub(g, lr)) would compute from its own uninitialized output. A real GPU
// kernel gets its pointers at launch; so does a task: each tensor argument is captured as a
// new TensorImpl over the same storage and geometry (which also keeps the storage alive).
inline Tensor task_copy(const Tensor& t) {
  if (!t.defined()) return t;
  return Tensor(t.storage(), t.dtype(), t.shape(), t.stride_vector(), t.storage_offset());
}
inline std::vector<Tensor> task_copy(const std::vector<Tensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(task_copy(t));
  return out;
}
inline std::optional<Tensor> task_copy(const std::optional<Tensor>& t) {
  return t ? std::optional<Tensor>(task_copy(*t)) : std::nullopt;
}
template <class T>
const T& task_copy(const T& value) {
  return value;
}

/// The bit of a stub's first tensor parameter: the output, unless the stub says otherwise.
template <class... Params>
constexpr unsigned first_tensor_parameter() {
  constexpr bool is_tensor[] = {std::is_same_v<std::decay_t<Params>, Tensor>..., false};
  for (unsigned i = 0; i < sizeof...(Params); ++i) {
    if (is_tensor[i]) return 1u << i;
  }
  return 0;
}

/// Declares the launch's reads and writes to the stream sanitizer (host code when `stream`
/// is nullptr); raises StreamRaceError on a race, before anything is enqueued.
template <class... Params, class... Args>
void sanitize_kernel(const cuda::Stream* stream, const char* op,
                     const kernels::KernelStub<void(Params...)>& stub, const Args&... args) {
  const unsigned writes = stub.writes != 0 ? stub.writes : first_tensor_parameter<Params...>();
  LaunchAccesses accesses;
  unsigned i = 0;
  const auto add = [&](const auto& arg) {
    accesses.add(arg, ((writes >> i) & 1u) != 0);
    ++i;
  };
  (add(args), ...);
  accesses.declare(stream, op);
}

/// Runs the stub's kernel on `device` with `args` (see the Note above). `op` must be a string
/// literal. Arguments are passed by reference on cpu and on real GPUs (no copies on the hot
/// path) and copied into the task on simulated GPUs (Note [Tasks capture geometry, not
/// TensorImpls]).
template <class... Params, class... Args>
void run_kernel(Device device, const char* op, const kernels::KernelStub<void(Params...)>& stub,
                const Args&... args) {
  if (device.is_cpu()) {
    // Host code may touch pinned memory that a stream still uses.
    if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) sanitize_kernel(nullptr, op, stub, args...);
    stub.cpu(args...);
    return;
  }
  const cuda::Stream stream = cuda::current_stream(device.index());
  if (TIDE_UNLIKELY(runtime::sanitizer_enabled())) sanitize_kernel(&stream, op, stub, args...);
  (note_stream_use(args, stream), ...);
  if (runtime::native_kernels()) {
    if (TIDE_UNLIKELY(stub.cuda == nullptr)) throw_no_cuda_kernel(op);
    runtime::NativeLaunch launch(stream, op);
    stub.cuda(args...);
    launch.finish();
    return;
  }
  runtime::launch(stream, op, runtime::Task([kernel = stub.cpu, ... captured = task_copy(args)] {
                    kernel(captured...);
                  }));
}

}  // namespace tide::detail
