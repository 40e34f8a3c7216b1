#pragma once
// KernelStub: one op's kernel per device kind, chosen by run_kernel (ops/dispatch.h).

namespace tide::kernels {

template <class Fn>
struct KernelStub;

/// Note [Kernel stubs]: every kernel an op front end launches is named by a stub holding its
/// cpu loop and, once the real CUDA backend has started, its GPU launcher with the same
/// signature. cpu tensors and simulated GPUs (whose memory is host memory) run the cpu loop —
/// inline, or as a task on the simulated stream; real GPUs call the `cuda` launcher on the
/// host thread, which enqueues device work on the stream of the current native launch
/// (backends/cuda/launch_context.h) and returns. `cuda` is written once, by
/// backends::register_cuda_kernels() while the backend registry starts (under its
/// std::call_once, which orders the write before every later read), and is nullptr in builds
/// without nvcc. Explicit registration rather than static registrar objects: a static link
/// would drop them (STYLE.md habit 3).
///
/// `writes` says which parameters the kernel writes, as a bit per parameter position (bit i:
/// parameter i); 0 means the usual "the first tensor parameter is the output, every other
/// tensor is only read". The stream sanitizer (Note [Stream sanitizer], runtime/sanitizer.h)
/// reads it to declare each launch's reads and writes.
template <class... Args>
struct KernelStub<void(Args...)> {
  using Fn = void(Args...);
  Fn* cpu = nullptr;
  Fn* cuda = nullptr;
  unsigned writes = 0;
};

}  // namespace tide::kernels
